import Foundation
import SCLMArchive
import SCLMBridgeModules
import SCLMBrowser
import SCLMCore
import SCLMPlayer
import SCLMSync

extension SCLM {
    /// `sclm play`: runs an installed presentation, or a package zip or folder, in Chromium with the bridge
    /// inside the page.
    package struct Play: Command {
        package static let configuration = CommandConfiguration(
            commandName: "play",
            abstract: "Run a presentation in Chromium, with StoryCLM's bridge inside the page.",
            discussion: """
                Plays the installed presentation --presentation ID, or the package zip or folder PATH (to
                reproduce a `validate --render` finding before publishing). PATH is checked against the
                package policy as `sclm validate` checks it (a package breaking a safety rule is refused with
                the reason; exit 1), then installed in a scratch home, a temporary folder deleted when play
                ends (also on an error or Ctrl-C): a zip is unpacked there as `sclm sync` unpacks it, a folder
                is served in place. The bridge answers as for an installed presentation, but nothing of your
                home changes: sessions and custom events go to the scratch home, and no browser storage is
                kept (--fresh is implied). The scratch home starts with no settings, so OSAM and HTTP calls
                answer as unconfigured: --home-settings starts it with your home's settings (read, never
                written), and --config KEY=VALUE (repeatable) sets one. A missing or unreadable PATH exits 74,
                one that is not a file or folder (a FIFO, socket or device) 66.

                The package is served to the browser from a private origin (https://presentation-<id>.sclm.invalid/)
                by answering the page's requests from the installed files; requests to other hosts are refused,
                as on an offline tablet. The page gets the transports a StoryContent app gives content (the
                storyclm:SCLM_QUEUE iframe queue drained with StoryCLMBridge.GetQueue(), and the WKWebView
                handler webkit.messageHandlers.storyclm), and every message goes through the same modules as
                `sclm bridge`: sessions, custom events, navigation, OSAM, HTTP. `go` loads the slide; the session
                is written to SQLite as it happens.

                With --presentation, the page's storage (localStorage, IndexedDB, cookies) is kept per
                presentation in the home and survives restarts, as on a tablet; --fresh starts with it empty.

                --headless (the default) runs without a window and ends when the content closes the
                presentation (exit 0), on a page or browser crash (1), on an uncaught page error with
                --fail-on-error (1), or when --timeout passes (124). --duration N plays N seconds and ends with
                exit 0, a smoke test: with --fail-on-error it ends with 1 at the first uncaught page error or
                failed load (bridge error answers and refused requests are warnings, not errors). --kiosk shows the presentation fullscreen
                on the current display and restarts the browser if it dies (the session goes on). Nobody closes
                an unattended presentation, so play ends each session as complete, to be published: after
                play.sessionIdle seconds without a slide change, on a return to the start slide, and when play
                stops (Ctrl-C included). As it runs, play prints one line for each slide
                shown, bridge error, page error, dialog and refused request; --json prints the bridge's
                events and the page's issues as JSON lines instead.

                The browser is --browser PATH, else $SCLM_BROWSER, else on PATH chromium-headless-shell (headless
                only) or chromium; without one sclm says how to install it and exits 69.
                """,
            arguments: [
                ArgumentSpec(
                    "path", help: "A package zip or folder to play in a scratch home (instead of --presentation).",
                    optional: true, path: true)
            ],
            options: [
                presentationOption, Bridge.slideOption, kioskFlag, headlessFlag, timeoutOption, durationOption,
                failOnErrorFlag, freshFlag, browserOption, homeSettingsFlag, configOption,
            ]
        )

        /// `--presentation id` (or PATH).
        static let presentationOption: CommandOption<Int64?> = .presentation(
            help: "The installed presentation to play (or give PATH).")
        /// `--kiosk`.
        static let kioskFlag: CommandOption<Bool> = .flag(
            "--kiosk",
            help:
                "Fullscreen on the current display; wait until --presentation is installed; restart the "
                + "browser if it dies.")
        /// `--headless`.
        static let headlessFlag: CommandOption<Bool> = .flag("--headless", help: "No window (the default).")
        /// `--timeout seconds`.
        static let timeoutOption: CommandOption<Int?> = .integer(
            "--timeout", value: "seconds", help: "Give up after this long (exit 124).", in: 1...86_400)
        /// `--duration seconds`.
        static let durationOption: CommandOption<Int?> = .integer(
            "--duration", value: "seconds", help: "Play this long, then end well (exit 0).", in: 1...86_400)
        /// `--fail-on-error`.
        static let failOnErrorFlag: CommandOption<Bool> = .flag(
            "--fail-on-error", help: "End with exit 1 on an uncaught page error or a failed load.")
        /// `--fresh`.
        static let freshFlag: CommandOption<Bool> = .flag(
            "--fresh",
            help:
                "Start with the presentation's browser storage (localStorage, IndexedDB, cookies) empty (always "
                + "with PATH).")
        /// `--browser path`.
        static let browserOption: CommandOption<String?> = .text(
            "--browser", value: "path",
            help:
                "The Chromium executable (default $SCLM_BROWSER, else chromium-headless-shell when headless, else chromium)."
        )
        /// `--home-settings`.
        static let homeSettingsFlag: CommandOption<Bool> = .flag(
            "--home-settings", help: "With PATH: the scratch home starts with your home's settings (read-only).")
        /// `--config key=value`, repeatable.
        static let configOption: CommandOption<[String]> = .texts(
            "--config", value: "key=value", help: "With PATH: a setting of the scratch home (repeatable).")

        /// What a run plays.
        enum Target: Sendable, Equatable {
            /// `--presentation id`: an installed presentation of the home.
            case presentation(Int64)
            /// PATH: a package zip or folder, in a scratch home with these settings.
            case package(String, RenderSettings)
        }

        let target: Target
        let slide: String?
        let isKiosk: Bool
        let limit: Player.Limit?
        let failsOnError: Bool
        let isFresh: Bool
        let browser: String?

        package init(parsing arguments: ParsedArguments) throws {
            target = try Self.target(arguments)
            slide = try arguments.read(Bridge.slideOption)
            isKiosk = try arguments.read(Self.kioskFlag)
            if try isKiosk && arguments.read(Self.headlessFlag) {
                throw ValidationError("--kiosk and --headless exclude each other; pick one")
            }
            let timeout = try arguments.read(Self.timeoutOption)
            let duration = try arguments.read(Self.durationOption)
            if timeout != nil && duration != nil {
                throw ValidationError("--timeout and --duration exclude each other; pick one")
            }
            limit = timeout.map { .timeout(.seconds($0)) } ?? duration.map { .duration(.seconds($0)) }
            failsOnError = try arguments.read(Self.failOnErrorFlag)
            isFresh = try arguments.read(Self.freshFlag)
            browser = try arguments.read(Self.browserOption)
        }

        /// The presentation or the package given, and the scratch home's settings of a package.
        ///
        /// - Throws: ``ValidationError`` unless exactly one of PATH and `--presentation` is given, or for
        ///   `--home-settings`/`--config` without PATH or a malformed `--config`.
        private static func target(_ arguments: ParsedArguments) throws -> Target {
            let presentationId = try arguments.read(Self.presentationOption)
            switch (arguments.positionals.first, presentationId) {
            case (let path?, nil):
                let settings = try RenderSettings.parse(
                    arguments.read(Self.configOption), usesHomeSettings: arguments.read(Self.homeSettingsFlag))
                return .package(path, settings)
            case (nil, let id?):
                let needingPath: [any OptionDeclaration] = [homeSettingsFlag, configOption]
                if let given = needingPath.first(where: { arguments.isGiven($0) }) {
                    throw ValidationError(
                        "\(given.spec.canonicalName) needs PATH: an installed presentation reads your home's settings")
                }
                return .presentation(id)
            case (.some, .some):
                throw ValidationError("give a package PATH or --presentation <id>, not both")
            case (nil, nil):
                throw ValidationError(
                    "missing PATH or --presentation <id>: the package zip or folder to play, or the installed "
                        + "presentation (see `sclm list`)")
            }
        }

        package func run(_ context: CommandContext) async throws {
            let options = BrowserOptions(
                executable: BrowserOptions.executable(option: browser, environment: context.environment),
                mode: isKiosk ? .kiosk : .headless, showsBrowserLogs: context.globals.verbose)
            let outcome: PageBridge.Outcome
            switch target {
            case .presentation(let presentationId):
                outcome = try await playInstalled(presentationId, options: options, context: context)
            case .package(let path, let settings):
                outcome = try await playPackage(path, settings: settings, options: options, context: context)
            }
            try Self.exit(for: outcome, context: context)
        }

        /// Plays installed presentation `presentationId` of the home, with its browser storage kept there.
        private func playInstalled(_ presentationId: Int64, options: BrowserOptions, context: CommandContext)
            async throws -> PageBridge.Outcome
        {
            var options = options
            // One storage per presentation, kept in the home across runs and kiosk restarts, as on a tablet.
            let kept = context.home.browserStorageDirectory(presentationId: presentationId)
            if isFresh { try FileSystem.removeTree(kept) }
            options.keptStorage = kept
            // One services scope for the whole run: kiosk restarts reuse its curl engine.
            let configuration = try context.configuration()
            let metricsPath = PlayerMetrics.path(besideSyncMetrics: try configuration.value(.metricsTextfile))
            let interval = Duration.seconds(try configuration.required(.playMetricsInterval))
            let status = PlayerStatus()
            return try await context.withServices { services in
                let player = makePlayer(
                    presentationId, options: options, hosting: services, context: context, status: status)
                return try await status.reportingMetrics(to: metricsPath, every: interval, logger: context.logger) {
                    if isKiosk { try await player.waitUntilInstalled() }
                    return try await keepPlaying(player, context: context)
                }
            }
        }

        /// Plays the package at `path` from a scratch home, which is gone when this returns or throws; no
        /// browser storage is kept (`--fresh` is implied) and a kiosk has nothing to wait for.
        private func playPackage(
            _ path: String, settings: RenderSettings, options: BrowserOptions, context: CommandContext
        ) async throws -> PageBridge.Outcome {
            let package = ScratchPackage(path: path, policy: .standard, settings: settings, provider: context)
            return try await package.withHosting { hosting in
                let player = makePlayer(
                    ScratchPackage.presentationId, options: options, hosting: hosting, context: context)
                return try await keepPlaying(player, context: context)
            }
        }

        /// A player of `presentationId` on `hosting`, with this command's slide, limit and narration.
        private func makePlayer(
            _ presentationId: Int64, options: BrowserOptions, hosting: any PresentationHosting, context: CommandContext,
            status: PlayerStatus = PlayerStatus()
        ) -> Player {
            Player(
                presentationId: presentationId, slide: slide, options: options, limit: limit,
                failsOnError: failsOnError, hosting: hosting, output: context.stdout, printsJSON: context.wantsJSON,
                status: status)
        }

        /// Runs `player` once, or under `--kiosk` again after each browser crash until the run ends otherwise;
        /// `--duration` and `--timeout` count from the first start, across the restarts.
        private func keepPlaying(_ player: Player, context: CommandContext) async throws -> PageBridge.Outcome {
            let started = ContinuousClock.now
            var outcome = try await player.run()
            while isKiosk, case .crashed(let reason) = outcome, !Task.isCancelled {
                context.logger.warning("\(reason); restarting the browser")
                player.status.noteBrowserRestart()
                try await Task.sleep(for: .seconds(1))
                switch player.continuing(after: ContinuousClock.now - started) {
                case .run(let next): outcome = try await next.run()
                case .end(let end): return end
                }
            }
            return outcome
        }

        /// Maps how the run ended to the exit status; with `--json`, says it last as
        /// `{"Play":"closed"|"crashed"|"failed"|"timedOut"|"played"|"cancelled","cancelled":…}`.
        static func exit(for outcome: PageBridge.Outcome, context: CommandContext) throws {
            if context.wantsJSON {
                let name =
                    switch outcome {
                    case .closed: "closed"
                    case .crashed: "crashed"
                    case .failed: "failed"
                    case .timedOut: "timedOut"
                    case .elapsed: "played"
                    case .interrupted: "cancelled"
                    }
                let json: JSONValue = ["Play": .string(name), "cancelled": .bool(outcome == .interrupted)]
                context.stdout.writeLine(json.jsonString)
            }
            switch outcome {
            case .closed, .elapsed:
                return
            case .crashed(let reason), .failed(let reason):
                context.logger.error(reason)
                throw ExitCode.failure
            case .timedOut:
                context.logger.error("the presentation was still running when --timeout passed")
                throw ExitCode(124)
            case .interrupted:
                throw CancellationError()
            }
        }
    }
}
