import Foundation

/// Diagnostics to standard error, filtered by level (`-v` shows debug, `-q` only errors).
///
/// stdout is reserved for results and protocol lines, so every log line goes to stderr. Callers must
/// not pass secrets; URLs are logged without their query strings (SCLMHTTP's `URL.redactedDescription`).
package struct Logger: Sendable {
    /// How important a message is.
    package enum Level: Int, Sendable, Comparable, CaseIterable {
        case debug, info, warning, error

        package static func < (lhs: Level, rhs: Level) -> Bool { lhs.rawValue < rhs.rawValue }

        var label: String {
            switch self {
            case .debug: "debug"
            case .info: "info"
            case .warning: "warning"
            case .error: "error"
            }
        }
    }

    /// Messages below this level are dropped.
    package let minimumLevel: Level
    /// Whether labels are coloured (a TTY and no `NO_COLOR`).
    package let usesColor: Bool
    private let writeLine: @Sendable (String) -> Void

    /// Creates a logger writing to `sink` (standard error by default).
    package init(minimumLevel: Level = .info, usesColor: Bool = false, sink: StandardStream = .standardError) {
        self.init(minimumLevel: minimumLevel, usesColor: usesColor) { sink.writeLine($0) }
    }

    /// Creates a logger that hands each finished line to `writeLine` (e.g. a live progress display that
    /// prints it above its bars).
    package init(minimumLevel: Level = .info, usesColor: Bool = false, writeLine: @escaping @Sendable (String) -> Void)
    {
        self.minimumLevel = minimumLevel
        self.usesColor = usesColor
        self.writeLine = writeLine
    }

    /// The same logger with its lines handed to `writeLine` instead.
    package func redirected(to writeLine: @escaping @Sendable (String) -> Void) -> Logger {
        Logger(minimumLevel: minimumLevel, usesColor: usesColor, writeLine: writeLine)
    }

    /// Writes `message` at `level` if the level is enabled.
    ///
    /// The message is one line: it is escaped with ``TerminalText/escaping(_:)`` as a whole, so names and
    /// errors from a server interpolated into it cannot steer the terminal or forge lines.
    package func log(_ level: Level, _ message: @autoclosure () -> String) {
        guard level >= minimumLevel else { return }
        let label = usesColor ? Logger.colored(level) : level.label
        let text = TerminalText.escaping(message())
        writeLine(level == .info ? text : "\(label): \(text)")
    }

    /// Logs at debug level.
    package func debug(_ message: @autoclosure () -> String) { log(.debug, message()) }
    /// Logs at info level.
    package func info(_ message: @autoclosure () -> String) { log(.info, message()) }
    /// Logs at warning level.
    package func warning(_ message: @autoclosure () -> String) { log(.warning, message()) }
    /// Logs at error level.
    package func error(_ message: @autoclosure () -> String) { log(.error, message()) }

    private static func colored(_ level: Level) -> String {
        let code =
            switch level {
            case .debug: "2"
            case .info: "0"
            case .warning: "33"
            case .error: "31"
            }
        return "\u{1B}[\(code)m\(level.label)\u{1B}[0m"
    }
}
