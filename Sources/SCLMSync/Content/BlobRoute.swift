import Foundation
import SCLMHTTP
import Synchronization

/// How one sync run reaches the blobs when a site cache is set (``BlobProxy``): through the cache until it
/// cannot be reached, then, when `sync.blobProxyFallback` allows it, straight from the origin for the rest of
/// the run, after one random pause of up to `sync.blobProxyFallbackDelay` shared by every download.
package final class BlobRoute: Sendable {
    /// The cache.
    package let proxy: BlobProxy
    private let state = Mutex<State>(State())

    private struct State {
        /// When direct fetches may start; set by the first cache failure of the run.
        var directFrom: ContinuousClock.Instant?
        /// That failure, for the summary and a later error.
        var reason: String?
    }

    /// A route through `proxy`.
    package init(proxy: BlobProxy) {
        self.proxy = proxy
    }

    /// Why this run fetches from the origin directly (the cache failure, in one sentence), or `nil` while
    /// the cache serves.
    package var fallbackReason: String? {
        state.withLock { $0.reason }
    }

    /// The notice the summary and `--json` carry once per run, when the run fell back.
    package var fallbackNotice: String? {
        fallbackReason.map {
            "the site cache sync.blobProxy (\(proxy.base.redactedDescription)) could not be reached (\($0)); "
                + "blobs were fetched from the origin directly"
        }
    }

    /// Whether blobs now come from the origin directly; waits out the run's random pause first.
    ///
    /// - Throws: `CancellationError`.
    func isDirect() async throws -> Bool {
        guard let start = state.withLock({ $0.directFrom }) else { return false }
        try await Task.sleep(until: start, clock: .continuous)
        return true
    }

    /// Switches the run to the origin after the cache failed with `error` (the first failure sets the
    /// random pause), then waits out that pause.
    ///
    /// - Throws: ``SyncError`` naming `sync.blobProxy` when the fallback is forbidden; `CancellationError`.
    func fallBack(after error: HTTPError, subject: String) async throws {
        guard proxy.fallbackAllowed else {
            throw SyncError(
                .downloadFailed, subject: subject, cause: error,
                detail:
                    "the site cache sync.blobProxy (\(proxy.base.redactedDescription)) cannot be reached and "
                    + "sync.blobProxyFallback is false; start the cache, fix sync.blobProxy, or allow the origin "
                    + "with `sclm config set sync.blobProxyFallback true`")
        }
        let pause = Duration.milliseconds(Int64.random(in: 0...proxy.fallbackDelay.wholeMilliseconds))
        state.withLock { state in
            guard state.directFrom == nil else { return }
            state.directFrom = .now + pause
            state.reason = error.summary
        }
        _ = try await isDirect()
    }

    /// The detail a download that failed after the fallback carries, so the error names the cache too.
    var failureDetail: String? {
        fallbackReason.map {
            "the site cache sync.blobProxy (\(proxy.base.redactedDescription)) could not be reached either (\($0))"
        }
    }
}

extension Duration {
    /// The duration in whole milliseconds (0 for a negative one).
    fileprivate var wholeMilliseconds: Int64 {
        let (seconds, attoseconds) = components
        return max(0, seconds * 1000 + attoseconds / 1_000_000_000_000_000)
    }
}
