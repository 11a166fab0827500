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
/// Commands are written in order by one serial queue; one reader thread parses what the browser writes,
/// resumes the caller waiting for each `id` and hands events to the handler registered for their
/// `sessionId` (`""` for browser-level events). Event handlers run on the reader thread and must not
/// block. When the pipe ends (the browser exited or crashed) every waiting call fails with
/// ``BrowserError`` (`.crashed`) and the `onClose` handler runs once.
final class DevToolsConnection: Sendable {
    /// Receives one event: its method and params.
    typealias EventHandler = @Sendable (_ method: String, _ params: JSONValue) -> Void

    private struct State {
        var nextId = 1
        var waiting: [Int: CheckedContinuation<JSONValue, any Error>] = [:]
        var handlers: [String: EventHandler] = [:]
        var closedReason: String?
    }

    private let state = Mutex(State())
    private let commands: Int32
    private let writer = DispatchQueue(label: "sclm.browser.devtools-writer")

    /// Creates a connection writing to `commands`; call ``start(reading:onClose:)`` before any call.
    init(commands: Int32) {
        self.commands = commands
    }

    /// Starts the reader thread on `messages`; `onClose` runs once with the reason when the pipe ends.
    func start(reading messages: Int32, onClose: @escaping @Sendable (String) -> Void) {
        let thread = Thread { [self] in
            readMessages(messages)
            let reason = "the browser exited"
            let waiting = state.withLock { state -> [CheckedContinuation<JSONValue, any Error>] in
                state.closedReason = reason
                defer { state.waiting = [:] }
                return Array(state.waiting.values)
            }
            for continuation in waiting { continuation.resume(throwing: BrowserError(.crashed, reason)) }
            onClose(reason)
        }
        thread.name = "sclm-devtools-reader"
        thread.stackSize = 8 << 20
        thread.start()
    }

    /// Routes the events of `session` (`""` for the browser) to `handler`, replacing an earlier one.
    func subscribe(session: String, _ handler: @escaping EventHandler) {
        state.withLock { $0.handlers[session] = handler }
    }

    /// Stops routing the events of `session`.
    func unsubscribe(session: String) {
        _ = state.withLock { $0.handlers.removeValue(forKey: session) }
    }

    /// Sends `method` and returns its `result`.
    ///
    /// Cancelling the calling task fails the call at once (the browser's late answer is dropped).
    ///
    /// - Throws: ``BrowserError`` (`.protocolError` for an error answer, `.crashed` when the browser is
    ///   gone), `CancellationError`.
    func call(_ method: String, _ params: JSONValue = [:], session: String? = nil) async throws -> JSONValue {
        let id = state.withLock { state -> Int in
            defer { state.nextId += 1 }
            return state.nextId
        }
        let bytes = Self.frame(id: id, method: method, params: params, session: session)
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                let closed = state.withLock { state -> String? in
                    if let reason = state.closedReason { return reason }
                    state.waiting[id] = continuation
                    return nil
                }
                if let closed { return continuation.resume(throwing: BrowserError(.crashed, closed)) }
                if Task.isCancelled { return fail(id, with: CancellationError()) }
                writer.async { [self] in write(bytes) }
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

    /// One NUL-terminated command message.
    private static func frame(id: Int, method: String, params: JSONValue, session: String?) -> [UInt8] {
        var message: [String: JSONValue] = ["id": .int(Int64(id)), "method": .string(method), "params": params]
        if let session { message["sessionId"] = .string(session) }
        var bytes = JSONWriter.bytes(.object(message))
        bytes.append(0)
        return bytes
    }

    private func fail(_ id: Int, with error: any Error) {
        let continuation = state.withLock { $0.waiting.removeValue(forKey: id) }
        continuation?.resume(throwing: error)
    }

    private func write(_ bytes: [UInt8]) {
        // A failed write means the browser is gone; the reader sees the pipe end and fails every call.
        bytes.withUnsafeBytes { _ = FileSystem.writeAll(commands, $0) }
    }

    // MARK: - Reading

    private func readMessages(_ fileDescriptor: Int32) {
        let capacity = 1 << 16
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: capacity, alignment: 16)
        defer { buffer.deallocate() }
        var pending: [UInt8] = []
        while true {
            let count = read(fileDescriptor, buffer.baseAddress, capacity)
            if count < 0 && errno == EINTR { continue }
            guard count > 0 else { return }
            var start = 0
            let chunk = UnsafeRawBufferPointer(rebasing: buffer[0..<count])
            while let end = chunk[start...].firstIndex(of: 0) {
                pending.append(contentsOf: chunk[start..<end])
                deliver(pending)
                pending.removeAll(keepingCapacity: true)
                start = end + 1
            }
            pending.append(contentsOf: chunk[start...])
        }
    }

    private func deliver(_ bytes: [UInt8]) {
        switch DevToolsMessage(bytes) {
        case .result(let id, let result)?:
            let continuation = state.withLock { $0.waiting.removeValue(forKey: id) }
            continuation?.resume(returning: result)
        case .refusal(let id, let message)?:
            let continuation = state.withLock { $0.waiting.removeValue(forKey: id) }
            continuation?.resume(throwing: BrowserError(.protocolError, "the browser refused a command: \(message)"))
        case .event(let method, let session, let params)?:
            let handler = state.withLock { $0.handlers[session] }
            handler?(method, params)
        case nil:
            break
        }
    }
}
