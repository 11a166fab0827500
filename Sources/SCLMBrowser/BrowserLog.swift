import Foundation
import SCLMCore
import Synchronization

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The browser's own stdout and stderr: passed through to sclm's stderr when asked (`-v`), line by line and
/// without Chromium's D-Bus noise (``isDBusNoise(_:)``: a kiosk has no session bus, and Chromium says so
/// every few seconds), and the last lines kept, so a browser that will not start is explained by its own words.
///
/// Chromium's lines look like `[pid:tid:date:FATAL:base/path_service.cc:264] Failed to get the path…`;
/// ``reason(_:)`` picks what says why it stopped: the `FATAL` line, else its last three `ERROR` lines that
/// are not D-Bus noise (`dbus/…`) (`Missing X server or $DISPLAY; The platform failed to initialize.
/// Exiting.`; a Wayland display that refuses it takes three: `Failed to connect to Wayland display:
/// Permission denied (13); Failed to initialize Wayland platform; The platform failed to initialize.
/// Exiting.`), else the last line (a launcher's own, such as `unshare: …`).
final class BrowserLog: Sendable {
    /// How many lines are kept.
    static let keptLines = 40
    /// The longest line kept, in bytes.
    static let maximumLine = 400

    private let lines = Mutex<[String]>([])
    private let ended = Latch<Void>()

    /// Reads `fileDescriptor` until end of file (on a reader thread of the browser's ``SpawnedChild``,
    /// which closes it); with `echo` (a descriptor: sclm's stderr under `-v`), every line but D-Bus noise also
    /// goes there.
    func read(_ fileDescriptor: Int32, echo: Int32?) {
        defer { ended.fire(()) }
        var buffer = [UInt8](repeating: 0, count: 1 << 14)
        var pending: [UInt8] = []
        while true {
            let count = buffer.withUnsafeMutableBytes { Glibc.read(fileDescriptor, $0.baseAddress, $0.count) }
            if count < 0 && errno == EINTR { continue }
            guard count > 0 else { break }
            pending.append(contentsOf: buffer[0..<count])
            while let newline = pending.firstIndex(of: 0x0A) {
                take(pending[...newline], echo: echo)
                pending.removeSubrange(...newline)
            }
            if pending.count > Self.maximumLine {
                take(pending[...], echo: echo)
                pending.removeAll()
            }
        }
        if !pending.isEmpty { take(pending[...], echo: echo) }
    }

    /// Keeps one line (or a long line's part) and echoes it unless it is D-Bus noise.
    private func take(_ bytes: ArraySlice<UInt8>, echo: Int32?) {
        let line = bytes.last == 0x0A ? bytes.dropLast() : bytes
        if let echo, !Self.isDBusNoise(String(decoding: line.prefix(Self.maximumLine), as: UTF8.self)) {
            bytes.withUnsafeBytes { _ = FileSystem.writeAll(echo, $0) }
        }
        keep(line)
    }

    private func keep(_ bytes: ArraySlice<UInt8>) {
        let line = String(decoding: bytes.prefix(Self.maximumLine), as: UTF8.self)
        guard !line.allSatisfy(\.isWhitespace) else { return }
        lines.withLock { lines in
            lines.append(line)
            if lines.count > Self.keptLines { lines.removeFirst() }
        }
    }

    /// Why the browser stopped, in its own words, once its output ended (or after `patience`, should a
    /// child still hold it open); `nil` when it said nothing.
    func reason(patience: Duration = .seconds(2)) async -> String? {
        let timer = Task { [ended] in
            try? await Task.sleep(for: patience)
            ended.fire(())
        }
        await ended.wait()
        timer.cancel()
        return Self.reason(lines.withLock { $0 })
    }

    /// The lines that say why the browser stopped (see the type's description).
    static func reason(_ lines: [String]) -> String? {
        let logged = lines.compactMap(logged)
        if let fatal = logged.last(where: { $0.level == "FATAL" }) { return fatal.message }
        let errors = logged.filter { $0.level == "ERROR" && !$0.source.hasPrefix("dbus/") }
        if !errors.isEmpty { return errors.suffix(3).map(\.message).joined(separator: "; ") }
        return lines.last
    }

    /// Whether `line` is Chromium complaining about D-Bus (no session or system bus on a kiosk): logged from
    /// `dbus/…`, or about a `org.freedesktop.…` service.
    static func isDBusNoise(_ line: String) -> Bool {
        guard let logged = logged(line) else { return false }
        return logged.source.hasPrefix("dbus/") || logged.message.contains("org.freedesktop.")
    }

    /// A Chromium log line's level, source and message: `[pid:tid:date:LEVEL:source:line] message`.
    private static func logged(_ line: String) -> (level: String, source: String, message: String)? {
        guard line.hasPrefix("["), let end = line.firstIndex(of: "]") else { return nil }
        let fields = line[line.index(after: line.startIndex)..<end].split(separator: ":")
        guard fields.count >= 5 else { return nil }
        let message = line[line.index(after: end)...].trimmingCharacters(in: .whitespaces)
        return (String(fields[3]), String(fields[4]), message)
    }
}
