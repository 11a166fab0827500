import Foundation
import SCLMBrowser
import SCLMCore
import SCLMPlayer

extension SCLM {
    /// `sclm play`: runs an installed presentation in Chromium with the bridge inside the page.
    package struct Play: Command {
        package static let configuration = CommandConfiguration(
            commandName: "play",
            abstract: "Run an installed presentation in Chromium, with StoryCLM's bridge inside the page.",
            discussion: """
                The package is served to the browser from a private origin (https://presentation-<id>.sclm.invalid/)
                by answering the page's requests from the installed files; requests to other hosts are refused,
                as on an offline tablet. The page gets the transports a StoryContent app gives content (the
                storyclm:SCLM_QUEUE iframe queue drained with StoryCLMBridge.GetQueue(), and the WKWebView
                handler webkit.messageHandlers.storyclm), and every message goes through the same modules as
                `sclm bridge`: sessions, custom events, navigation, OSAM, HTTP. `go` loads the slide; the session
                is written to SQLite as it happens.

                The page's storage (localStorage, IndexedDB, cookies) is kept per presentation in the home and
                survives restarts, as on a tablet; --fresh starts with it empty.

                --headless (the default) runs without a window and ends when the content closes the
                presentation (exit 0), on a page or browser crash (1), on an uncaught page error with
                --fail-on-error (1), or when --timeout passes (124). --duration N plays N seconds and ends with
                exit 0, a smoke test: with --fail-on-error it ends with 1 at the first uncaught page error or
                failed load (bridge error answers and refused requests are warnings, not errors). --kiosk shows the presentation fullscreen
                on the current display and restarts the browser if it dies; Ctrl-C ends it and leaves the
                session unfinished, to be resumed next time. As it runs, play prints one line for each slide
                shown, bridge error, page error, dialog and refused request; --json prints the bridge's
                events and the page's issues as JSON lines instead.

                The browser is --browser PATH, else $SCLM_BROWSER, else chromium on PATH; without one sclm says
                how to install it and exits 69.
                """,
            options: [
                presentationOption, Bridge.slideOption, kioskFlag, headlessFlag, timeoutOption, durationOption,
                failOnErrorFlag, freshFlag, browserOption,
            ]
        )

        /// `--presentation id` (required).
        static let presentationOption: CommandOption<Int64> = .presentation(
            purpose: "play", help: "The installed presentation to play.")
        /// `--kiosk`.
        static let kioskFlag: CommandOption<Bool> = .flag(
            "--kiosk",
            help:
                "Fullscreen on the current display; wait until the presentation is installed; restart the "
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
            "--fresh", help: "Start with the presentation's browser storage (localStorage, IndexedDB, cookies) empty.")
        /// `--browser path`.
        static let browserOption: CommandOption<String?> = .text(
            "--browser", value: "path", help: "The Chromium executable (default $SCLM_BROWSER, else chromium).")

        let presentationId: Int64
        let slide: String?
        let isKiosk: Bool
        let limit: Player.Limit?
        let failsOnError: Bool
        let isFresh: Bool
        let browser: String?

        package init(parsing arguments: ParsedArguments) throws {
            presentationId = try arguments.read(Self.presentationOption)
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

        package func run(_ context: CommandContext) async throws {
            var options = BrowserOptions(
                executable: BrowserOptions.executable(option: browser, environment: context.environment),
                mode: isKiosk ? .kiosk : .headless, showsBrowserLogs: context.globals.verbose)
            // One storage per presentation, kept in the home across runs and kiosk restarts, as on a tablet.
            let kept = context.home.browserStorageDirectory(presentationId: presentationId)
            if isFresh { try FileSystem.removeTree(kept) }
            options.keptStorage = kept
            // One services scope for the whole run: kiosk restarts reuse its curl engine.
            let outcome = try await context.withServices { services in
                let player = Player(
                    presentationId: presentationId, slide: slide, options: options, limit: limit,
                    failsOnError: failsOnError, hosting: services, output: context.stdout, printsJSON: context.wantsJSON
                )
                if isKiosk { try await player.waitUntilInstalled() }
                var outcome = try await player.run()
                while isKiosk, case .crashed(let reason) = outcome, !Task.isCancelled {
                    context.logger.warning("\(reason); restarting the browser")
                    try await Task.sleep(for: .seconds(1))
                    outcome = try await player.run()
                }
                return outcome
            }
            try Self.exit(for: outcome, context: context)
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
