import Foundation

/// How long a test waits for something that should come (a line, a response, an event, a server's first
/// line) before it gives up: a guard against a hang, not a measure of speed. Everything returns as soon as
/// what it waits for arrives; only a broken run waits this long, so it is generous enough for a CI runner
/// beside two busy loops, where a bridge started with its Python module took over 10 s to open.
package enum HangGuard {
    /// Seconds.
    package static let seconds: TimeInterval = 60
}
