import Foundation
import SCLMBridgeModules
import SCLMBrowser
import SCLMCore
import Synchronization

/// What one `sclm play` is doing across its browser runs: the host and browser of the run under way and the
/// browser restarts so far. ``Player`` attaches each run; ``reportingMetrics(to:every:logger:isolation:_:)``
/// writes it as ``PlayerMetrics``.
package final class PlayerStatus: Sendable {
    private struct State {
        var host: PresentationHost?
        var browserProcess: pid_t?
        var browserRestarts = 0
    }

    private let state = Mutex(State())

    /// A player with no browser run yet.
    package init() {}

    /// Runs `body` with `host` and `browser` as the run under way, and without them afterwards.
    func attaching<T>(
        _ host: PresentationHost, browser: Browser, isolation: isolated (any Actor)? = #isolation,
        _ body: () async throws -> T
    ) async rethrows -> T {
        state.withLock { state in (state.host, state.browserProcess) = (host, browser.processId) }
        defer { state.withLock { state in (state.host, state.browserProcess) = (nil, nil) } }
        return try await body()
    }

    /// Counts a browser restart.
    package func noteBrowserRestart() {
        state.withLock { $0.browserRestarts += 1 }
    }

    /// The metrics now; `isUp` says whether the player still runs.
    package func metrics(isUp: Bool) -> PlayerMetrics {
        let (host, browserProcess, restarts) = state.withLock { ($0.host, $0.browserProcess, $0.browserRestarts) }
        return PlayerMetrics(
            isUp: isUp, onScreen: isUp ? host?.onScreen : nil, browserRestarts: restarts,
            recording: isUp ? host?.recorder.status : nil,
            browserMemory: isUp ? browserProcess.map { ProcessTree(root: $0).proportionalSetSize } ?? 0 : 0)
    }

    /// Runs `body` while writing ``metrics(isUp:)`` to `path` every `interval`, and once more with `isUp`
    /// false when it returns or throws; with `path` `nil` it only runs `body`. A file that cannot be written
    /// is a warning (once), never the player's failure.
    package func reportingMetrics<T>(
        to path: String?, every interval: Duration, logger: Logger, isolation: isolated (any Actor)? = #isolation,
        _ body: () async throws -> T
    ) async throws -> T {
        guard let path else { return try await body() }
        let warned = Mutex(false)
        let write = { @Sendable [self] (isUp: Bool) in
            do {
                try metrics(isUp: isUp).prometheus.write(to: path, durable: false)
            } catch {
                let isFirst = warned.withLock { warned in
                    defer { warned = true }
                    return !warned
                }
                if isFirst { logger.warning("cannot write the player metrics: \(error.userMessage)") }
            }
        }
        let writer = Task {
            while !Task.isCancelled {
                write(true)
                try? await Task.sleep(for: interval)
            }
        }
        let result: Result<T, any Error>
        do { result = .success(try await body()) } catch { result = .failure(error) }
        writer.cancel()
        await writer.value
        write(false)
        return try result.get()
    }
}
