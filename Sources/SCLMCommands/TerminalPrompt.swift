import Foundation
import SCLMCore

#if canImport(Glibc)
    import Glibc
#endif

/// Asks for a line on the terminal (stdin must be a TTY), optionally without echo for passwords.
///
/// The prompt goes to stderr. While waiting, the task's cancellation (Ctrl-C) is checked several times
/// a second, and the terminal's echo setting is always restored.
enum TerminalPrompt {
    /// Whether stdin is a terminal a prompt can be answered on.
    static var isAvailable: Bool { isatty(0) == 1 }

    /// The line typed after `prompt` (its interpolated values escaped, see ``TerminalText``), without its newline.
    ///
    /// - Throws: `CancellationError` when the task is cancelled while waiting; `SCLMError` when stdin closes.
    static func read(_ prompt: TerminalText, echo: Bool) throws -> String {
        StandardStream.standardError.write(prompt.rendered)
        var saved = termios()
        let canSilence = !echo && tcgetattr(0, &saved) == 0
        if canSilence {
            var silent = saved
            silent.c_lflag &= ~tcflag_t(ECHO)
            tcsetattr(0, TCSAFLUSH, &silent)
        }
        defer {
            if canSilence {
                tcsetattr(0, TCSAFLUSH, &saved)
                StandardStream.standardError.write("\n")
            }
        }
        var bytes: [UInt8] = []
        while true {
            if Task.isCancelled { throw CancellationError() }
            var poller = pollfd(fd: 0, events: Int16(POLLIN), revents: 0)
            guard poll(&poller, 1, 200) > 0 else { continue }
            var byte: UInt8 = 0
            let count = Glibc.read(0, &byte, 1)
            if count <= 0 {
                if count < 0, errno == EINTR { continue }
                throw SCLMError(.usage, "no input: the terminal closed")
            }
            if byte == UInt8(ascii: "\n") { break }
            bytes.append(byte)
        }
        return String(decoding: bytes, as: UTF8.self).trimmingCharacters(in: CharacterSet(charactersIn: "\r"))
    }
}
