import Foundation
import Synchronization

/// Frames pushed in-process: a browser page's bridge hands each message of the page's binding to
/// ``push(_:)``, which frames it and delivers it to the server on the pushing thread — no pipe, no thread.
///
/// Pushes are delivered one at a time, in order. Lines pushed before the server starts are kept (at most
/// ``backlogBytes``; beyond that they are delivered as ``Frame/overlong(byteCount:)``, so the server
/// answers 413) and delivered first. After ``stop()`` nothing is delivered; a push under way finishes
/// before ``deliverFrames(maximumLineBytes:to:)`` returns.
package final class FrameInlet: FrameSource {
    /// The most bytes kept for a server that has not started yet.
    static let backlogBytes = 1 << 20

    private struct State {
        var deliver: (@Sendable ([Frame]) -> Void)?
        var framer: LineFramer?
        var backlog: [Frame] = []
        var backlogBytes = 0
        var isPushing = false
        var isStopped = false
        var ended: CheckedContinuation<Void, Never>?
    }

    private let state = Mutex(State())
    /// Held for a whole push, so pushes from several threads keep their order.
    private let order = NSLock()

    /// Creates an inlet with no server yet.
    package init() {}

    /// Delivers `line` (one message, without its newline); `false` once the inlet is stopped.
    @discardableResult
    package func push(_ line: [UInt8]) -> Bool {
        order.lock()
        defer { order.unlock() }
        let taken = state.withLock { state -> (([Frame]) -> Void, [Frame])? in
            guard !state.isStopped else { return nil }
            guard let deliver = state.deliver, var framer = state.framer else {
                keep(line, in: &state)
                return nil
            }
            var frames: [Frame] = []
            framer.append(line + [0x0A], to: &frames)
            state.framer = framer
            state.isPushing = true
            return (deliver, frames)
        }
        guard let (deliver, frames) = taken else { return !state.withLock { $0.isStopped } }
        if !frames.isEmpty { deliver(frames) }
        finishPush()
        return true
    }

    /// Keeps `line` for a server yet to start: as is within ``backlogBytes``, else as an overlong frame.
    private func keep(_ line: [UInt8], in state: inout State) {
        state.backlogBytes += line.count
        state.backlog.append(state.backlogBytes <= Self.backlogBytes ? .line(line) : .overlong(byteCount: line.count))
    }

    /// Ends a push: a ``stop()`` that came meanwhile lets the server go on.
    private func finishPush() {
        let ended = state.withLock { state -> CheckedContinuation<Void, Never>? in
            state.isPushing = false
            guard state.isStopped else { return nil }
            defer { state.ended = nil }
            return state.ended
        }
        ended?.resume()
    }

    package func deliverFrames(maximumLineBytes: Int, to deliver: @escaping @Sendable ([Frame]) -> Void) async {
        let backlog = order.withLock { () -> [Frame]? in
            let backlog = state.withLock { state -> [Frame]? in
                guard !state.isStopped else { return nil }
                defer { state.backlog = [] }
                state.deliver = deliver
                state.framer = LineFramer(maximumLineBytes: maximumLineBytes)
                return state.backlog.map { frame in
                    guard case .line(let bytes) = frame, bytes.count > maximumLineBytes else { return frame }
                    return .overlong(byteCount: bytes.count)
                }
            }
            if let backlog, !backlog.isEmpty { deliver(backlog) }
            return backlog
        }
        guard backlog != nil else { return }
        await withCheckedContinuation { continuation in
            let resumeNow = state.withLock { state -> Bool in
                guard !state.isStopped || state.isPushing else { return true }
                state.ended = continuation
                return false
            }
            if resumeNow { continuation.resume() }
        }
    }

    package func stop() {
        let ended = state.withLock { state -> CheckedContinuation<Void, Never>? in
            state.isStopped = true
            state.deliver = nil
            guard !state.isPushing else { return nil }
            defer { state.ended = nil }
            return state.ended
        }
        ended?.resume()
    }
}
