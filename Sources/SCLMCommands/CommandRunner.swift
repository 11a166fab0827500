import Dispatch
import Foundation
import SCLMCore
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// Runs the command tree as a process: parse, run with signal handling, map the outcome to an exit code.
///
/// SIGINT and SIGTERM cancel the running command's task (exit 130 once it has unwound); a second signal
/// exits at once. SIGPIPE is ignored so a closed stdout is an error, not a crash.
package enum CommandRunner {
    /// Parses `argv`, runs the chosen command and returns the process exit status.
    package static func run(root: any Command.Type, argv: [String], environment: [String: String]) async -> Int32 {
        signal(SIGPIPE, SIG_IGN)
        let parser = CommandParser(root: root)
        let terminal = TerminalInfo.current(environment: environment)
        let invocation: Invocation
        do {
            invocation = try parser.parse(argv)
        } catch {
            return report(parseError: error, parser: parser, wantsJSON: CommandParser.asksForJSON(argv))
        }
        let context = CommandContext(
            globals: invocation.globals, environment: environment, commandPath: invocation.path, terminal: terminal)
        let task = Task {
            let command = try invocation.command.init(parsing: invocation.arguments)
            try command.validate()
            try await command.run(context)
        }
        let signals = SignalWatcher(notice: { context.showNotice($0) }) { task.cancel() }
        defer { signals.stop() }
        switch await task.result {
        case .success: return 0
        case .failure(let error): return report(error, invocation: invocation, context: context)
        }
    }

    private static func report(parseError error: any Error, parser: CommandParser, wantsJSON: Bool) -> Int32 {
        switch error {
        case CleanExit.version:
            StandardStream.standardOutput.writeLine("sclm \(SCLMVersion.current)")
            return 0
        case CleanExit.helpRequested(let path):
            let command = parser.command(at: path) ?? parser.root
            StandardStream.standardOutput.write(HelpFormatter.help(for: command, path: path))
            return 0
        case let failure as CommandParser.Failure:
            printUsageError(failure.error, command: parser.command(at: failure.path) ?? parser.root, path: failure.path)
            if wantsJSON { printJSON(ErrorReport(failure.error.message, category: .usage)) }
            return ErrorCategory.usage.exitCode
        default:
            printError(error.userMessage)
            if wantsJSON { printJSON(ErrorReport(error.userMessage, category: .internal)) }
            return ErrorCategory.internal.exitCode
        }
    }

    private static func report(_ error: any Error, invocation: Invocation, context: CommandContext) -> Int32 {
        switch error {
        case let exit as ExitCode:
            return exit.status
        case let validation as ValidationError:
            printUsageError(validation, command: invocation.command, path: invocation.path)
            if context.wantsJSON { context.printJSON(ErrorReport(validation.message, category: .usage)) }
            return ErrorCategory.usage.exitCode
        default:
            let category = error.category
            printError(error.userMessage)
            if context.wantsJSON { context.printJSON(ErrorReport(error.userMessage, category: category)) }
            return category.exitCode
        }
    }

    /// Reports a failure the command itself maps to `status` (for example `sclm diff`'s 2 for a refused
    /// package, where 1 means changes): `Error: <message>` on stderr, and with `--json` the error line.
    static func report(failure message: String, category: ErrorCategory, status: Int32, context: CommandContext) {
        printError(message)
        if context.wantsJSON { context.printJSON(ErrorReport(message, category: category, exitCode: status)) }
    }

    /// A failure's `--json` line on stdout, before a command (and its context) exists.
    private static func printJSON(_ report: ErrorReport) {
        StandardStream.standardOutput.writeLine(JSONOutput.line(report))
    }

    /// The one place an error reaches the terminal: `Error: <message>` on stderr, the message escaped as a
    /// whole (it is one line and may carry a server's or a package's text). `--json` keeps the exact message.
    private static func printError(_ message: String) {
        StandardStream.standardError.writeLine("Error: \(TerminalText.escaping(message))")
    }

    private static func printUsageError(_ error: ValidationError, command: any Command.Type, path: [String]) {
        let stream = StandardStream.standardError
        printError(error.message)
        stream.writeLine("Usage: \(HelpFormatter.usage(for: command, path: path))")
        stream.writeLine("  See '\(path.joined(separator: " ")) --help' for more information.")
    }

    /// The `--json` shape of a failure, printed on stdout in addition to the stderr line.
    struct ErrorReport: Encodable {
        struct Details: Encodable {
            let category: String
            let message: String
            let exitCode: Int32
        }
        let error: Details

        /// The report of a failure with `message` in `category`, exiting with `exitCode` (by default the
        /// category's).
        init(_ message: String, category: ErrorCategory, exitCode: Int32? = nil) {
            error = Details(
                category: category.rawValue, message: message, exitCode: exitCode ?? category.exitCode)
        }
    }
}

/// Turns SIGINT/SIGTERM into a cancellation callback; a second signal exits 130 immediately.
final class SignalWatcher {
    private let sources: [any DispatchSourceSignal]

    /// Watches the signals; `notice` shows the "Cancelling…" line, `onSignal` cancels the work.
    init(notice: @escaping @Sendable (String) -> Void, onSignal: @escaping @Sendable () -> Void) {
        let queue = DispatchQueue(label: "sclm.signals")
        let count = Counter()
        sources = [SIGINT, SIGTERM].map { number in
            signal(number, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: number, queue: queue)
            source.setEventHandler {
                if count.increment() > 1 { exit(ErrorCategory.cancelled.exitCode) }
                notice("Cancelling… (press Ctrl-C again to quit at once)")
                onSignal()
            }
            source.resume()
            return source
        }
    }

    func stop() {
        for source in sources { source.cancel() }
    }

    /// How many signals arrived.
    private final class Counter: Sendable {
        private let value = Mutex(0)

        /// Counts one more signal and returns the count.
        func increment() -> Int {
            value.withLock { value in
                value += 1
                return value
            }
        }
    }
}
