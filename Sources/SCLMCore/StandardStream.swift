import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// An unbuffered writer to a file descriptor (stdout or stderr) that writes whole lines with one `write(2)`.
///
/// Writes of one line are atomic with respect to each other for lines up to `PIPE_BUF` on pipes and in
/// practice for terminals and files, so concurrent loggers never interleave within a line.
package struct StandardStream: Sendable {
    /// The file descriptor written to.
    package let fileDescriptor: Int32

    /// Standard output: results and protocol lines only.
    package static let standardOutput = StandardStream(fileDescriptor: 1)
    /// Standard error: diagnostics.
    package static let standardError = StandardStream(fileDescriptor: 2)

    /// Creates a writer for `fileDescriptor`.
    package init(fileDescriptor: Int32) { self.fileDescriptor = fileDescriptor }

    /// Whether the descriptor is a terminal.
    package var isTerminal: Bool { isatty(fileDescriptor) == 1 }

    /// Writes `text` followed by a newline.
    package func writeLine(_ text: String) {
        write(text + "\n")
    }

    /// Writes `text` as is.
    package func write(_ text: String) {
        var text = text
        text.withUTF8 { write(bytes: UnsafeRawBufferPointer($0)) }
    }

    /// Writes raw bytes, retrying on `EINTR` and short writes; a closed pipe ends the write silently.
    package func write(bytes: UnsafeRawBufferPointer) {
        guard var pointer = bytes.baseAddress else { return }
        var remaining = bytes.count
        while remaining > 0 {
            #if canImport(Glibc)
                let written = Glibc.write(fileDescriptor, pointer, remaining)
            #else
                let written = Foundation.write(fileDescriptor, pointer, remaining)
            #endif
            if written < 0 {
                if errno == EINTR { continue }
                return
            }
            pointer += written
            remaining -= written
        }
    }
}

/// Facts about the terminal that decide how output looks (colour, live progress).
package struct TerminalInfo: Sendable, Equatable {
    /// Whether stdout is a terminal (live progress bars are only drawn then).
    package let isStdoutTerminal: Bool
    /// Whether colour may be used: stderr or stdout is a TTY, `NO_COLOR` is unset and `TERM` is not `dumb`.
    package let usesColor: Bool
    /// The terminal width in columns (80 when unknown).
    package let columns: Int

    /// Creates terminal facts explicitly (for tests).
    package init(isStdoutTerminal: Bool, usesColor: Bool, columns: Int = 80) {
        self.isStdoutTerminal = isStdoutTerminal
        self.usesColor = usesColor
        self.columns = columns
    }

    /// Reads the facts of this process from its descriptors and `environment`.
    package static func current(environment: [String: String]) -> TerminalInfo {
        let stdoutTTY = StandardStream.standardOutput.isTerminal
        let noColor = environment["NO_COLOR"].map { !$0.isEmpty } ?? false
        let dumb = environment["TERM"] == "dumb"
        let color = !noColor && !dumb && (stdoutTTY || StandardStream.standardError.isTerminal)
        var size = winsize()
        let columns = ioctl(1, UInt(TIOCGWINSZ), &size) == 0 && size.ws_col > 0 ? Int(size.ws_col) : 80
        return TerminalInfo(isStdoutTerminal: stdoutTTY, usesColor: color, columns: columns)
    }
}
