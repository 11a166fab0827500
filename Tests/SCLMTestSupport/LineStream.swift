import Foundation

/// Newline-delimited output read from a file handle on a background thread, handed out with timeouts.
///
/// ``nextLine(timeout:)`` returns lines in order; ``response(to:timeout:)`` and ``event(_:timeout:)``
/// take the first matching JSON line wherever it is, so tests of out-of-order answers stay simple.
/// Every line read is also kept in ``allLines``.
package final class LineStream: @unchecked Sendable {
    /// A value handed from the waiting thread back to the task (JSON objects are plain Foundation values).
    private struct UncheckedBox<T>: @unchecked Sendable {
        let value: T
        init(_ value: T) { self.value = value }
    }

    // Invariant: the mutable buffers are only touched with `condition` locked.
    private let condition = NSCondition()
    private var unread: [String] = []
    private var lines: [String] = []
    private var partial = Data()
    private var ended = false
    private let finished = DispatchGroup()

    /// Starts reading `handle` until end of file.
    package init(_ handle: FileHandle) {
        finished.enter()
        let thread = Thread { [self] in
            while true {
                let data = handle.availableData
                condition.lock()
                if data.isEmpty { ended = true } else { receive(data) }
                condition.broadcast()
                condition.unlock()
                if data.isEmpty { break }
            }
            try? handle.close()  // at end of file (see RunningProcess.collect)
            finished.leave()
        }
        thread.start()
    }

    private func waitForEnd(timeout: TimeInterval) -> Bool {
        finished.wait(timeout: .now() + timeout) == .success
    }

    /// The next unread line, or `nil` when none arrives within `timeout` seconds.
    ///
    /// The async forms wait on a thread of their own: a blocking wait on the cooperative pool would
    /// starve every other test in the process (two threads on two cores).
    package func nextLine(timeout: TimeInterval = HangGuard.seconds) async -> String? {
        await offPool { self.waitForLine(timeout: timeout) }
    }

    /// The next unread line parsed as a JSON object.
    package func nextMessage(timeout: TimeInterval = HangGuard.seconds) async -> [String: Any]? {
        await nextLine(timeout: timeout).flatMap(Self.object)
    }

    /// The response whose `GUID` is `guid` (`nil`: a `"GUID":null` response), taken out of the unread lines.
    package func response(to guid: String?, timeout: TimeInterval = HangGuard.seconds) async -> [String: Any]? {
        await take(timeout: timeout) { message in
            guard message["Event"] == nil else { return false }
            if let guid { return message["GUID"] as? String == guid }
            return message["GUID"] is NSNull
        }
    }

    /// The next event named `name`, taken out of the unread lines.
    package func event(_ name: String, timeout: TimeInterval = HangGuard.seconds) async -> [String: Any]? {
        await take(timeout: timeout) { ($0["Event"] as? String) == name }
    }

    /// Takes the first unread line whose JSON object matches `predicate`, waiting up to `timeout` seconds.
    package func take(
        timeout: TimeInterval = HangGuard.seconds, where predicate: @escaping @Sendable ([String: Any]) -> Bool
    ) async
        -> [String: Any]?
    {
        await offPool { self.waitForLine(timeout: timeout, matching: predicate) }.flatMap(Self.object)
    }

    /// Waits until the end of the stream has been read (up to `timeout` seconds).
    @discardableResult
    package func ended(timeout: TimeInterval = 5) async -> Bool {
        await offPool { self.waitForEnd(timeout: timeout) }
    }

    private func waitForLine(timeout: TimeInterval) -> String? {
        let deadline = Date(timeIntervalSinceNow: timeout)
        condition.lock()
        defer { condition.unlock() }
        while unread.isEmpty {
            if ended || !condition.wait(until: deadline) { return unread.isEmpty ? nil : unread.removeFirst() }
        }
        return unread.removeFirst()
    }

    /// Removes and returns the first unread line whose object matches `predicate`, waiting up to `timeout`.
    private func waitForLine(timeout: TimeInterval, matching predicate: ([String: Any]) -> Bool) -> String? {
        let deadline = Date(timeIntervalSinceNow: timeout)
        condition.lock()
        defer { condition.unlock() }
        while true {
            if let index = unread.firstIndex(where: { Self.object($0).map(predicate) ?? false }) {
                return unread.remove(at: index)
            }
            if ended || !condition.wait(until: deadline) {
                guard let index = unread.firstIndex(where: { Self.object($0).map(predicate) ?? false }) else {
                    return nil
                }
                return unread.remove(at: index)
            }
        }
    }

    /// Every line read so far.
    package var allLines: [String] {
        condition.lock()
        defer { condition.unlock() }
        return lines
    }

    /// Lines read and not yet taken.
    package var unreadLines: [String] {
        condition.lock()
        defer { condition.unlock() }
        return unread
    }

    /// Splits bytes into lines; called with the lock held.
    private func receive(_ data: Data) {
        partial.append(data)
        while let newline = partial.firstIndex(of: 0x0A) {
            let line = String(decoding: partial[partial.startIndex..<newline], as: UTF8.self)
            partial.removeSubrange(partial.startIndex...newline)
            lines.append(line)
            unread.append(line)
        }
    }

    /// Runs a blocking wait on a new thread and resumes with its result.
    private func offPool<T>(_ wait: @escaping @Sendable () -> T) async -> T {
        let box = await withCheckedContinuation { (continuation: CheckedContinuation<UncheckedBox<T>, Never>) in
            Thread { continuation.resume(returning: UncheckedBox(wait())) }.start()
        }
        return box.value
    }

    /// `line` parsed as a JSON object, if it is one.
    package static func object(_ line: String) -> [String: Any]? {
        (try? JSONSerialization.jsonObject(with: Data(line.utf8))) as? [String: Any]
    }
}
