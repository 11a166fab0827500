import Dispatch
import Foundation
import SCLMCore
import Synchronization

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The DevTools protocol over Chromium's `--remote-debugging-pipe`: NUL-terminated JSON messages.
///
/// Commands are written in order by one serial queue (stopped by ``stopWriting()`` before the pipe
/// closes); one reader thread parses what the browser writes,
/// resumes the caller waiting for each `id` and hands events to the handler registered for their
/// `sessionId` (`""` for browser-level events). Event handlers run on the reader thread and must not
/// block. When the pipe ends (the browser exited or crashed) every waiting call fails with
/// ``BrowserError`` (`.crashed`) and the `onClose` handler runs once.
///
/// Nothing here is unbounded: every call has a deadline (``defaultDeadline``; a stuck renderer never
/// answers), an event above ``maximumEventBytes`` is skipped unread and stands in as ``oversizedEvent``,
/// and ``sendNow(_:_:session:member:capacity:fill:)`` writes a large body built once, in place.
final class DevToolsConnection: Sendable {
    /// Receives one event: its method and params.
    typealias EventHandler = @Sendable (_ method: String, _ params: JSONValue) -> Void
    /// Receives one event of a given method from any session: the session (`""` for the browser) and params.
    typealias SessionObserver = @Sendable (_ session: String, _ params: JSONValue) -> Void

    /// A call waiting for its answer, with the session it was sent in (`""` for the browser).
    private struct Waiting {
        let session: String
        let continuation: CheckedContinuation<JSONValue, any Error>
    }

    private struct State {
        var nextId = 1
        var waiting: [Int: Waiting] = [:]
        var handlers: [String: EventHandler] = [:]
        var observers: [String: SessionObserver] = [:]
        var closedReason: String?
    }

    private let state = Mutex(State())
    private let commands: Int32
    private let writer = DispatchQueue(label: "sclm.browser.devtools-writer")
    /// Whether commands are still written; read and changed only on `writer`.
    private let isWriting = Atomic(true)

    /// Creates a connection writing to `commands`; ``BrowserProcess/connect(_:onClose:)`` starts its reader.
    init(commands: Int32) {
        self.commands = commands
    }

    /// Reads the browser's messages from `messages` until they end (on a reader thread of the browser's
    /// ``SpawnedChild``), then fails every waiting call and runs `onClose` once with the reason.
    func read(_ messages: Int32, onClose: @escaping @Sendable (String) -> Void) {
        readMessages(messages)
        let reason = "the browser exited"
        let waiting = state.withLock { state -> [Waiting] in
            state.closedReason = reason
            defer { state.waiting = [:] }
            return Array(state.waiting.values)
        }
        for call in waiting { call.continuation.resume(throwing: BrowserError(.crashed, reason)) }
        onClose(reason)
    }

    /// Fails every call still waiting in `session` with `.crashed` and `reason`: the target went away
    /// (closed, or its renderer gone), so it will never answer them.
    func failCalls(inSession session: String, reason: String) {
        let waiting = state.withLock { state -> [Waiting] in
            let ids = state.waiting.filter { $0.value.session == session }.map(\.key)
            return ids.compactMap { state.waiting.removeValue(forKey: $0) }
        }
        for call in waiting { call.continuation.resume(throwing: BrowserError(.crashed, reason)) }
    }

    /// Waits for the writes queued so far and drops every later one, so the command pipe can be closed
    /// (its descriptor number reused) without a write landing on it.
    func stopWriting() {
        writer.sync { isWriting.store(false, ordering: .relaxed) }
    }

    /// Routes the events of `session` (`""` for the browser) to `handler`, replacing an earlier one.
    func subscribe(session: String, _ handler: @escaping EventHandler) {
        state.withLock { $0.handlers[session] = handler }
    }

    /// Hands every `method` event of any session to `observer` (before the session's own handler),
    /// replacing an earlier observer of that method.
    func observe(_ method: String, _ observer: @escaping SessionObserver) {
        state.withLock { $0.observers[method] = observer }
    }

    /// Stops routing the events of `session`.
    func unsubscribe(session: String) {
        _ = state.withLock { $0.handlers.removeValue(forKey: session) }
    }

    /// How long a call waits for its answer unless told otherwise: a stuck renderer (`while (true) {}`)
    /// never answers calls that need it, and no call may hang a run.
    static let defaultDeadline: Duration = .seconds(30)

    /// Sends `method` and returns its `result`.
    ///
    /// Cancelling the calling task fails the call at once, and so does `deadline` passing (the browser's
    /// late answer is dropped); `nil` is ``defaultDeadline``.
    ///
    /// - Throws: ``BrowserError`` (`.protocolError` for an error answer, `.crashed` when the browser is
    ///   gone, `.timedOut` after `deadline`), `CancellationError`.
    func call(
        _ method: String, _ params: JSONValue = [:], session: String? = nil, deadline: Duration? = nil
    ) async throws -> JSONValue {
        let deadline = deadline ?? Self.defaultDeadline
        let id = state.withLock { state -> Int in
            defer { state.nextId += 1 }
            return state.nextId
        }
        let bytes = Self.frame(id: id, method: method, params: params, session: session)
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                let closed = state.withLock { state -> String? in
                    if let reason = state.closedReason { return reason }
                    state.waiting[id] = Waiting(session: session ?? "", continuation: continuation)
                    return nil
                }
                if let closed { return continuation.resume(throwing: BrowserError(.crashed, closed)) }
                if Task.isCancelled { return fail(id, with: CancellationError()) }
                writer.async { [self] in write(bytes) }
                let expiry = BrowserError(
                    .timedOut, "the browser did not answer \(method) within \(deadline.inSeconds) s")
                DispatchQueue.global().asyncAfter(deadline: .now() + deadline.inSeconds) { [self] in
                    fail(id, with: expiry)
                }
            }
        } onCancel: {
            fail(id, with: CancellationError())
        }
    }

    /// Sends `method` without waiting for its answer (which is dropped); sends keep their order with calls.
    func send(_ method: String, _ params: JSONValue = [:], session: String? = nil) {
        let id = state.withLock { state -> Int in
            defer { state.nextId += 1 }
            return state.closedReason == nil ? state.nextId : 0
        }
        guard id > 0 else { return }
        let bytes = Self.frame(id: id, method: method, params: params, session: session)
        writer.async { [self] in write(bytes) }
    }

    /// Writes `method` at once, in order with other calls, and returns when it is written: `params` plus the
    /// string member `name`, whose text `fill` appends (ASCII that needs no escaping, such as base64) into
    /// the message's own buffer (`capacity` bytes reserved), so a large body exists once, and only until
    /// it is written. Nothing is sent when the browser is gone.
    ///
    /// - Throws: what `fill` throws (nothing is sent then).
    func sendNow(
        _ method: String, _ params: JSONValue, session: String?, member name: String, capacity: Int,
        fill: (inout [UInt8]) throws -> Void
    ) throws {
        let id = state.withLock { state -> Int in
            defer { state.nextId += 1 }
            return state.closedReason == nil ? state.nextId : 0
        }
        guard id > 0 else { return }
        var bytes = Array("{\"id\":\(id),\"method\":".utf8)
        let head = JSONWriter.bytes(params)
        bytes.reserveCapacity(capacity + head.count + 256)
        JSONWriter.write(method, to: &bytes)
        if let session {
            bytes.append(contentsOf: ",\"sessionId\":".utf8)
            JSONWriter.write(session, to: &bytes)
        }
        bytes.append(contentsOf: ",\"params\":".utf8)
        bytes.append(contentsOf: head.dropLast())
        if head.count > 2 { bytes.append(UInt8(ascii: ",")) }
        JSONWriter.write(name, to: &bytes)
        bytes.append(contentsOf: ":\"".utf8)
        try fill(&bytes)
        bytes.append(contentsOf: "\"}}\u{0}".utf8)
        writer.sync { write(bytes) }
    }

    /// One NUL-terminated command message.
    private static func frame(id: Int, method: String, params: JSONValue, session: String?) -> [UInt8] {
        var message: [String: JSONValue] = ["id": .int(Int64(id)), "method": .string(method), "params": params]
        if let session { message["sessionId"] = .string(session) }
        var bytes = JSONWriter.bytes(.object(message))
        bytes.append(0)
        return bytes
    }

    private func fail(_ id: Int, with error: any Error) {
        let call = state.withLock { $0.waiting.removeValue(forKey: id) }
        call?.continuation.resume(throwing: error)
    }

    private func write(_ bytes: [UInt8]) {
        // A failed write means the browser is gone; the reader sees the pipe end and fails every call.
        guard isWriting.load(ordering: .relaxed) else { return }
        bytes.withUnsafeBytes { _ = FileSystem.writeAll(commands, $0) }
    }

    // MARK: - Reading

    /// The largest event read whole; a larger one (a `console.error` of 100 MB) is skipped unread and
    /// handed to its session's handler as ``oversizedEvent`` (its method, size and first bytes). Answers
    /// to calls (screenshots) are always read whole.
    static let maximumEventBytes = 8 << 20
    /// The largest bridge message (`Runtime.bindingCalled`) read whole: above any line the bridge server
    /// accepts (16 MiB, twice that JSON-escaped), so the server itself answers 413 to what is too long.
    static let maximumBindingEventBytes = 40 << 20
    /// The method of the stand-in for an event too large to read: params `method`, `bytes`, `head`.
    static let oversizedEvent = "sclm.oversizedEvent"

    private func readMessages(_ fileDescriptor: Int32) {
        let capacity = 1 << 16
        let base = UnsafeMutableRawPointer.allocate(byteCount: capacity, alignment: 16)
        defer { base.deallocate() }
        let buffer = UnsafeMutableRawBufferPointer(start: base, count: capacity)
        var pending: [UInt8] = []
        var skipped: SkippedEvent?
        while true {
            let count = Glibc.read(fileDescriptor, base, capacity)
            if count < 0 && errno == EINTR { continue }
            guard count > 0 else { return }
            var start = 0
            let chunk = UnsafeRawBufferPointer(rebasing: buffer[0..<count])
            // memchr, not a byte loop: 100 MB messages stream through here.
            while start < count, let found = memchr(base + start, 0, count - start) {
                let end = base.distance(to: found)
                if var event = skipped {
                    event.add(chunk[start..<end])
                    deliver(event)
                    skipped = nil
                } else {
                    pending.append(contentsOf: chunk[start..<end])
                    deliver(pending)
                    pending.removeAll(keepingCapacity: pending.count <= capacity)
                }
                start = end + 1
            }
            if skipped != nil {
                skipped?.add(chunk[start...])
            } else {
                pending.append(contentsOf: chunk[start...])
                if pending.count > Self.maximumEventBytes, pending.starts(with: Array(#"{"method""#.utf8)),
                    pending.count > Self.maximumBindingEventBytes
                        || !pending.starts(with: Array(#"{"method":"Runtime.bindingCalled""#.utf8))
                {
                    skipped = SkippedEvent(pending)
                    pending = []
                }
            }
        }
    }

    /// Hands an event too large to read to its session's handler, as ``oversizedEvent``.
    private func deliver(_ event: SkippedEvent) {
        let handler = state.withLock { $0.handlers[event.session] }
        handler?(
            Self.oversizedEvent,
            [
                "method": .string(event.method), "bytes": .int(Int64(event.bytes)),
                "head": .string(String(decoding: event.head, as: UTF8.self)),
            ])
    }

    private func deliver(_ bytes: [UInt8]) {
        switch DevToolsMessage(bytes) {
        case .result(let id, let result)?:
            let call = state.withLock { $0.waiting.removeValue(forKey: id) }
            call?.continuation.resume(returning: result)
        case .refusal(let id, let message)?:
            let call = state.withLock { $0.waiting.removeValue(forKey: id) }
            call?.continuation.resume(
                throwing: BrowserError(.protocolError, "the browser refused a command: \(message)"))
        case .event(let method, let session, let params)?:
            let (handler, observer) = state.withLock { ($0.handlers[session], $0.observers[method]) }
            observer?(session, params)
            handler?(method, params)
        case nil:
            break
        }
    }
}
