import SCLMArchive
import Synchronization

/// The signed link a delta update's requests share: fetched once, renewed after a 403 by whichever request
/// meets it first, at most ``DownloadStateMachine/maxLinkRenewals`` times in a row without progress.
final class LinkSource: Sendable {
    private let fetch: @Sendable () async throws -> BlobLink
    private let state = Mutex<(link: BlobLink?, renewals: Int)>((nil, 0))

    /// A source that asks `fetch` for links.
    init(_ fetch: @escaping @Sendable () async throws -> BlobLink) {
        self.fetch = fetch
    }

    /// The link in use, fetched on first use.
    func current() async throws -> BlobLink {
        if let link = state.withLock({ $0.link }) { return link }
        let link = try await fetch()
        state.withLock { $0.link = $0.link ?? link }
        return link
    }

    /// Replaces `stale` (answered 403) with a fresh link, unless another request already did.
    ///
    /// - Throws: ``DeltaFallback`` after too many renewals without progress.
    func renew(after stale: BlobLink) async throws {
        let renewals = state.withLock { $0.renewals }
        guard renewals < DownloadStateMachine.maxLinkRenewals else {
            throw DeltaFallback("the download link was refused \(renewals + 1) times in a row (403)")
        }
        let fresh = try await fetch()
        state.withLock { current in
            if current.link == nil || current.link == stale {
                current.link = fresh
                current.renewals += 1
            }
        }
    }

    /// Records that a request succeeded (the renewals in a row start again).
    func progressed() {
        state.withLock { $0.renewals = 0 }
    }
}
