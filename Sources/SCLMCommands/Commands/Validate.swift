import Foundation
import SCLMArchive
import SCLMCore

extension SCLM {
    /// `sclm validate PATH…`: check content packages in CI before they are published.
    public struct Validate: Command {
        public static let configuration = CommandConfiguration(
            commandName: "validate",
            abstract: "Check content packages (zip files or folders) before they are published.",
            discussion: """
                Each package is checked against the package policy: a safe, complete zip (no path
                escapes, links, devices, bombs, bad CRCs, encryption), budgets, and StoryCLM content
                rules (index.html at the root, slides at the root, every local src/href/srcset/url()
                reference resolving with exact case, clm-swipe-* targets, storyclm.js, offline
                resources). Findings carry a stable rule ID, the entry path and line, and a fix;
                docs/validation.md lists every rule. Nothing is ever written to disk.

                Exit codes: 0 every package passed, 1 errors (or warnings with --strict),
                64 usage, 66 a path is not a file or folder (a FIFO, socket or device; answered
                at once, never opened), 74 a path could not be read.
                """,
            arguments: [
                ArgumentSpec(
                    "path", help: "A package zip, an unpacked package folder, or a folder of packages.",
                    repeating: true, path: true)
            ],
            options: [
                .option(
                    "--format", help: "Output format (default text; --json means json).",
                    choices: ["text", "json", "junit"]),
                .flag("--strict", help: "Treat warnings as failures."),
                .option("--max-size", value: "bytes", help: "Budget for the unpacked size, e.g. 500M (default 2GiB)."),
                .option("--max-entries", value: "n", help: "Budget for the number of entries (default 20000)."),
            ]
        )

        enum Format: String {
            case text, json, junit
        }

        let paths: [String]
        let format: Format?
        let isStrict: Bool
        let policy: Policy

        public init(parsing arguments: ParsedArguments) throws {
            paths = arguments.positionals
            format = try arguments.choice("--format", from: ["text", "json", "junit"]).flatMap(Format.init)
            isStrict = arguments.flag("--strict")
            var policy = Policy()
            if let text = arguments.value("--max-size") {
                guard let bytes = ByteCount.parse(text), bytes > 0 else {
                    throw ValidationError(
                        "--max-size needs a byte count such as 500000000, 500M or 2GiB, got '\(text)'")
                }
                policy.maxTotalSize = bytes
            }
            if let entries = try arguments.integer("--max-entries", in: 1...Int.max) { policy.maxEntryCount = entries }
            self.policy = policy
        }

        public func run(_ context: CommandContext) async throws {
            let format = try resolvedFormat(json: context.wantsJSON)
            let validator = PackageValidator(policy: policy)
            var outcomes: [ValidationOutcome] = []
            for path in PackageFolder.expand(paths, note: { context.logger.info($0) }) {
                outcomes.append(try await validate(path, with: validator, context: context))
            }
            switch format {
            case .text:
                let usesColor = context.terminal.usesColor && context.terminal.isStdoutTerminal
                context.print(ValidationTextReport(outcomes: outcomes, strict: isStrict, usesColor: usesColor).text)
            case .json:
                context.printJSON(ValidationJSONReport(outcomes: outcomes, strict: isStrict))
            case .junit:
                context.stdout.write(JUnitReport(outcomes: outcomes, strict: isStrict).xml)
            }
            if let unread = outcomes.first(where: { $0.readError != nil }) {
                throw ExitCode((unread.readErrorCategory ?? .storage).exitCode)
            }
            if !outcomes.allSatisfy({ $0.passes(strict: isStrict) }) { throw ExitCode.failure }
        }

        private func resolvedFormat(json: Bool) throws -> Format {
            guard json else { return format ?? .text }
            if let format, format != .json {
                throw ValidationError("--json conflicts with --format \(format.rawValue)")
            }
            return .json
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
