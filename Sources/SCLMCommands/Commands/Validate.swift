import Foundation
import SCLMArchive
import SCLMBrowser
import SCLMCore
import SCLMPlayer

extension SCLM {
    /// `sclm validate PATH…`: check content packages in CI before they are published.
    package struct Validate: Command {
        package static let configuration = CommandConfiguration(
            commandName: "validate",
            abstract: "Check content packages (zip files or folders) before they are published.",
            discussion: """
                Each package is checked against the package policy: a safe, complete zip (no path
                escapes, links, devices, bombs, bad CRCs, encryption), budgets, and StoryCLM content
                rules (index.html at the root, slides at the root, every local src/href/srcset/url()
                reference resolving with exact case, clm-swipe-* targets, storyclm.js, offline
                resources). Findings carry a stable rule ID, the entry path and line, and a fix;
                docs/validation.md lists every rule. Nothing is ever written to disk.

                --render also loads every slide of each package (that is safe to unpack) in headless
                Chromium, several pages at a time in one browser, with the bridge of `sclm bridge` inside a
                throwaway home (nothing of yours changes; `go` and `open` are answered but not followed).
                Each slide must load and settle (no requests or bridge calls for a moment) within
                --render-timeout, is pictured, and is then still heard for a late window of
                --render-settle seconds after its last frame or worker started or request. Every slide ends rendered
                or with a finding saying why not (RENDER-TIMEOUT with its phase, RENDER-CRASHED,
                RENDER-NOT-REACHED); a package passes only when all its slides were rendered. Other
                RENDER-* findings: uncaught errors (also those the page swallows, and those of its iframes
                and workers), console.error, files the package lacks, requests and sockets to other hosts
                (refused), bridge errors, dialogs. --screenshots DIR writes one PNG per rendered slide at
                --viewport and an index.html contact sheet (a placeholder with the reason for the others). The throwaway home starts with no settings, so the bridge modules
                a slide calls (OSAM, HTTP) answer as unconfigured: --home-settings starts it with your home's
                settings (read, never written), and --config KEY=VALUE (repeatable) sets one for the render.

                Exit codes: 0 every package passed, 1 errors (or warnings with --strict),
                64 usage, 66 a path is not a file or folder (a FIFO, socket or device; answered
                at once, never opened), 69 --render without a browser, 74 a path could not be read,
                130 interrupted (the report says cancelled).
                """,
            arguments: [
                ArgumentSpec(
                    "path", help: "A package zip, an unpacked package folder, or a folder of packages.",
                    repeating: true, path: true)
            ],
            options: [
                formatOption, strictFlag, maxSizeOption, maxEntriesOption, renderFlag, screenshotsOption,
                viewportOption,
                renderTimeoutOption, renderSettleOption, browserOption, homeSettingsFlag, configOption,
            ]
        )

        /// `--format text|json|junit`.
        static let formatOption: CommandOption<String?> = .choice(
            "--format", help: "Output format (default text; --json means json).", choices: ["text", "json", "junit"])
        /// `--strict`.
        static let strictFlag: CommandOption<Bool> = .flag("--strict", help: "Treat warnings as failures.")
        /// `--max-size bytes`.
        static let maxSizeOption: CommandOption<Int64?> = .option(
            "--max-size", value: "bytes", help: "Budget for the unpacked size, e.g. 500M (default 2GiB)."
        ) { text in
            guard let bytes = ByteCount.parse(text), bytes > 0 else {
                throw ValidationError("--max-size needs a byte count such as 500000000, 500M or 2GiB, got '\(text)'")
            }
            return bytes
        }
        /// `--max-entries n`.
        static let maxEntriesOption: CommandOption<Int?> = .integer(
            "--max-entries", value: "n", help: "Budget for the number of entries (default 20000).", in: 1...Int.max)
        /// `--render`.
        static let renderFlag: CommandOption<Bool> = .flag(
            "--render", help: "Also load every slide in headless Chromium and report RENDER-* findings.")
        /// `--screenshots dir`.
        static let screenshotsOption: CommandOption<String?> = .text(
            "--screenshots", value: "dir", help: "With --render: a PNG per slide and an index.html contact sheet.")
        /// `--viewport WxH`.
        static let viewportOption: CommandOption<BrowserOptions.Viewport?> = .option(
            "--viewport", value: "WxH", help: "With --render: the page size (default 1024x768)."
        ) { text in
            guard let parsed = BrowserOptions.Viewport(parsing: text) else {
                throw ValidationError("--viewport needs WIDTHxHEIGHT such as 1024x768 (16…8192 each), got '\(text)'")
            }
            return parsed
        }
        /// `--render-timeout seconds`.
        static let renderTimeoutOption: CommandOption<Int> = CommandOption<Int?>.integer(
            "--render-timeout", value: "seconds",
            help: "With --render: how long a slide may take to load and settle (default 15).",
            in: 1...600
        ).defaulting(to: 15)
        /// `--render-settle seconds`.
        static let renderSettleOption: CommandOption<Int> = CommandOption<Int?>.integer(
            "--render-settle", value: "seconds",
            help:
                "With --render: how long a slide's late errors are heard, after its last frame or worker started (default 3).",
            in: 0...600
        ).defaulting(to: 3)
        /// `--browser path`.
        static let browserOption: CommandOption<String?> = .text(
            "--browser", value: "path",
            help:
                "With --render: the Chromium executable (default $SCLM_BROWSER, else chromium-headless-shell, else chromium)."
        )
        /// `--home-settings`.
        static let homeSettingsFlag: CommandOption<Bool> = .flag(
            "--home-settings", help: "With --render: the modules read your home's settings (read-only).")
        /// `--config key=value`, repeatable.
        static let configOption: CommandOption<[String]> = .texts(
            "--config", value: "key=value", help: "With --render: a setting for the modules (repeatable).")

        enum Format: String {
            case text, json, junit
        }

        let paths: [String]
        let format: Format?
        let isStrict: Bool
        let policy: Policy
        let render: RenderOptions?

        /// What `--render` and its options asked for.
        struct RenderOptions: Sendable {
            var screenshots: String?
            var viewport: BrowserOptions.Viewport
            var timeout: Duration
            /// How long a slide's late errors are heard, after its last frame or worker started.
            var settle: Duration
            var browser: String?
            var settings: RenderSettings
        }

        package init(parsing arguments: ParsedArguments) throws {
            paths = arguments.positionals
            format = try arguments.read(Self.formatOption).flatMap(Format.init)
            isStrict = try arguments.read(Self.strictFlag)
            policy = try Self.policy(arguments)
            render = try Self.renderOptions(arguments)
        }

        /// The package policy with the budgets `--max-size` and `--max-entries` give (also `sclm diff`'s).
        static func policy(_ arguments: ParsedArguments) throws -> Policy {
            var policy = Policy()
            if let bytes = try arguments.read(maxSizeOption) { policy.maxTotalSize = bytes }
            if let entries = try arguments.read(maxEntriesOption) { policy.maxEntryCount = entries }
            return policy
        }

        private static func renderOptions(_ arguments: ParsedArguments) throws -> RenderOptions? {
            guard try arguments.read(Self.renderFlag) else {
                let needingRender: [any OptionDeclaration] = [
                    screenshotsOption, viewportOption, renderTimeoutOption, renderSettleOption, browserOption,
                    configOption,
                    homeSettingsFlag,
                ]
                if let given = needingRender.first(where: { arguments.isGiven($0) }) {
                    throw ValidationError("\(given.spec.canonicalName) needs --render")
                }
                return nil
            }
            let seconds = try arguments.read(Self.renderTimeoutOption)
            let settle = try arguments.read(Self.renderSettleOption)
            return RenderOptions(
                screenshots: try arguments.read(Self.screenshotsOption),
                viewport: try arguments.read(Self.viewportOption) ?? BrowserOptions.Viewport(width: 1024, height: 768),
                timeout: .seconds(seconds), settle: .seconds(settle), browser: try arguments.read(Self.browserOption),
                settings: try RenderSettings.parse(
                    arguments.read(Self.configOption), usesHomeSettings: arguments.read(Self.homeSettingsFlag)))
        }

        package func run(_ context: CommandContext) async throws {
            let format = try OutputFormat.resolve(
                self.format, json: .json, fallback: .text, wantsJSON: context.wantsJSON)
            let validator = PackageValidator(policy: policy)
            var outcomes: [ValidationOutcome] = []
            for path in PackageFolder.expand(paths, note: { context.logger.info($0) }) {
                outcomes.append(try await validate(path, with: validator, context: context))
            }
            if let render {
                let renderer = PackageRenderer(
                    options: BrowserOptions(
                        executable: BrowserOptions.executable(option: render.browser, environment: context.environment),
                        viewport: render.viewport, showsBrowserLogs: context.globals.verbose),
                    limits: SlideRenderer.Limits(timeout: render.timeout, window: render.settle), policy: policy,
                    screenshots: render.screenshots, settings: render.settings, provider: context)
                let rendered = try await renderer.render(
                    outcomes.map { PackageRenderer.Package(path: $0.path, report: $0.report) })
                outcomes = zip(outcomes, rendered).map { outcome, rendered in outcome.replacing(rendered) }
            }
            try report(outcomes, format: format, context: context)
            // The report says so; the status is that of a cancelled command (130), never a pass.
            if outcomes.contains(where: \.cancelled) { throw ExitCode(ErrorCategory.cancelled.exitCode) }
            if let unread = outcomes.first(where: { $0.readError != nil }) {
                throw ExitCode((unread.readErrorCategory ?? .storage).exitCode)
            }
            if !outcomes.allSatisfy({ $0.passes(strict: isStrict) }) { throw ExitCode.failure }
        }

        private func report(_ outcomes: [ValidationOutcome], format: Format, context: CommandContext) throws {
            switch format {
            case .text:
                let usesColor = context.terminal.usesColor && context.terminal.isStdoutTerminal
                context.print(ValidationTextReport(outcomes: outcomes, strict: isStrict, usesColor: usesColor).text)
            case .json:
                context.printJSON(ValidationJSONReport(outcomes: outcomes, strict: isStrict))
            case .junit:
                context.stdout.write(JUnitReport(outcomes: outcomes, strict: isStrict, rendered: render != nil).xml)
            }
        }

        private func validate(_ path: String, with validator: PackageValidator, context: CommandContext) async throws
            -> ValidationOutcome
        {
            let start = ContinuousClock.now
            func seconds() -> Double { (ContinuousClock.now - start).inSeconds }
            do {
                let report = try await validator.validate(path)
                context.logger.debug("validated \(path) in \(seconds()) s")
                return ValidationOutcome(path: path, report: report, readError: nil, seconds: seconds())
            } catch let error as ArchiveError where [.unreadable, .notFileOrFolder].contains(error.code) {
                context.logger.error(error.message)
                return ValidationOutcome(
                    path: path, report: nil, readError: error.message, readErrorCategory: error.category,
                    seconds: seconds())
            }
        }
    }
}
