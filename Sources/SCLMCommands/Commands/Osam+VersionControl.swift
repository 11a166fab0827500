import SCLMCore
import SCLMOSAM
import SCLMPolicy

extension SCLM.Osam {
    /// `sclm osam version-control`: should an update alert be shown now?
    package struct VersionControl: Command {
        package static let configuration = CommandConfiguration(
            commandName: "version-control",
            abstract: "Check whether to show an update alert (FORCE, LAZY or INFO) and which.",
            discussion: """
                Fetches GET {endpoint}/api/version/{package}/{PLATFORM}/{versionCode} (or, when the backend
                is unreachable or --offline is given, uses the record cached by the last check for this same
                build) and decides like the OSAM common module. A shown alert waits for its answer:
                run 'sclm osam version-control-answer'. Exit 0 for SHOW and DISMISSED, 69 for ERROR.
                JSON: {"result":"SHOW"|"DISMISSED"|"ERROR","alert":{"mode","title","message","ok","cancel",
                "url","checkbox","checkboxLabel"}|null,"reason":"…"}
                """,
            options: [
                OsamOptions.endpoint, OsamOptions.package, OsamOptions.platform, OsamOptions.versionCode,
                OsamOptions.versionName, osVersionOption, modelOption, OsamOptions.language, OsamOptions.offline,
                OsamOptions.now,
            ])

        /// `--os-version version`.
        static let osVersionOption: CommandOption<String?> = .text(
            "--os-version", value: "version",
            help: "Device OS version for the record's filter (default: VERSION_ID of os-release).")
        /// `--model model`.
        static let modelOption: CommandOption<String?> = .text(
            "--model", value: "model",
            help: "Device model for the record's filter (default: DMI product name or machine).")

        let options: OsamOptions
        let osVersion: String?
        let model: String?

        package init(parsing arguments: ParsedArguments) throws {
            options = try OsamOptions(parsing: arguments)
            osVersion = try arguments.read(Self.osVersionOption)
            model = try arguments.read(Self.modelOption)
        }

        package func run(_ context: CommandContext) async throws {
            let configuration = try context.configuration()
            let app = try options.installedApp(configuration, osVersion: osVersion, model: model)
            let platform = try options.platform(configuration)
            let decision = try await context.withOSAMService(
                options, configuration: configuration, needsBackend: true
            ) {
                try await $0.versionControl(
                    app: app, platform: platform, language: options.language, connectivity: options.connectivity)
            }
            if context.wantsJSON {
                context.printJSON(decision.jsonValue)
            } else {
                context.print(Self.text(decision))
            }
            if decision.result == .error { throw ExitCode(ErrorCategory.network.exitCode) }
        }

        static func text(_ decision: VersionControlDecision) -> TerminalText {
            guard let alert = decision.alert else {
                return
                    "\(decision.result.rawValue): \(decision.failure ?? decision.reason.explanation) (\(decision.reason.rawValue))"
            }
            var lines: [TerminalText] = ["SHOW \(alert.mode.rawValue): \(alert.title)", "  \(alert.message)"]
            lines.append("  buttons: [\(alert.ok)]\(alert.cancel.map { " [\($0)]" } ?? "")")
            if let url = alert.url { lines.append("  OK opens: \(url)") }
            if let label = alert.checkboxLabel { lines.append("  checkbox: [ ] \(label)") }
            lines.append(
                "Answer with: sclm osam version-control-answer --choice ok|\(alert.cancel == nil ? "" : "cancel|")dismiss"
            )
            return lines.joined(separator: "\n")
        }
    }

    /// `sclm osam version-control-answer`: report what the user did with the alert.
    package struct VersionControlAnswer: Command {
        package static let configuration = CommandConfiguration(
            commandName: "version-control-answer",
            abstract: "Record the user's answer to the alert last shown for a package on a platform.",
            discussion: """
                ok: FORCE and LAZY answer ACCEPTED and give the URL to open; INFO answers DISMISSED. On LAZY and
                INFO, ok starts the dialogDisplayDuration throttle, and with --dont-show-again (when the alert
                offered the checkbox) disarms the alert until the record changes. cancel (LAZY only) answers
                CANCELLED and changes nothing, so the alert comes back on the next check. dismiss answers
                DISMISSED and changes nothing. JSON: {"response":"ACCEPTED"|"CANCELLED"|"DISMISSED","openUrl":URL|null}
                """,
            options: [
                OsamOptions.package, OsamOptions.platform, choiceOption, dontShowAgainFlag, OsamOptions.now,
            ])

        /// `--choice ok|cancel|dismiss` (required).
        static let choiceOption: CommandOption<String?> = .choice(
            "--choice", help: "The button the user pressed, or dismiss.", required: true,
            choices: AlertChoice.allCases.map(\.rawValue))
        /// `--dont-show-again`.
        static let dontShowAgainFlag: CommandOption<Bool> = .flag(
            "--dont-show-again", help: "The user ticked \"don't show again\".")

        let options: OsamOptions
        let choice: AlertChoice
        let dontShowAgain: Bool

        package init(parsing arguments: ParsedArguments) throws {
            options = try OsamOptions(parsing: arguments)
            guard let choice = try arguments.read(Self.choiceOption) else {
                throw ValidationError("missing --choice ok|cancel|dismiss")
            }
            self.choice = AlertChoice(rawValue: choice) ?? .dismiss
            dontShowAgain = try arguments.read(Self.dontShowAgainFlag)
        }

        package func run(_ context: CommandContext) async throws {
            let configuration = try context.configuration()
            let package = try options.package(configuration)
            let platform = try options.platform(configuration)
            let answer = try await context.withOSAMService(options, configuration: configuration) {
                try await $0.answer(package: package, platform: platform, choice: choice, dontShowAgain: dontShowAgain)
            }
            if context.wantsJSON {
                context.printJSON(answer.jsonValue)
            } else {
                context.print("\(answer.response.rawValue)\(answer.openURL.map { ": open \($0)" } ?? "")")
            }
        }
    }
}
