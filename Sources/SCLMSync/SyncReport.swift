import SCLMCore
import SCLMStore

/// One presentation (or the whole listing) that could not be synced, for the summary.
package struct SyncFailure: Sendable, Equatable, Encodable {
    /// The presentation, when the failure concerns one.
    package var presentationId: Int64?
    /// What failed and what to do, in one sentence.
    package var message: String
    /// The failure's category (`network`, `temporary`, …).
    package var category: ErrorCategory

    /// Creates a failure from an error.
    package init(presentationId: Int64?, error: any Error) {
        self.presentationId = presentationId
        self.message = error.userMessage
        self.category = error.category
    }
}

/// What the metadata phase did.
package struct MetadataReport: Sendable, Equatable, Encodable {
    /// The synced clients.
    package var clientIds: [Int64]
    /// Presentations those clients list.
    package var presentations: Int
    /// Presentations stored for the first time.
    package var added: [Int64]
    /// Presentations whose new revision was stored.
    package var updated: [Int64]
    /// Presentations (and their content) removed because the server no longer lists them.
    package var removed: [Int64]
    /// Listed presentations that needed no request.
    package var unchanged: Int
    /// Presentations that could not be fetched; their stored state is kept.
    package var failures: [SyncFailure]
}

/// A presentation whose content is not installed at the server's revision (after a metadata-only sync,
/// or what a content phase could not install).
package struct ContentCandidate: Sendable, Equatable, Encodable {
    package var presentationId: Int64
    package var clientId: Int64
    package var name: String
    /// The server's revision.
    package var revision: Int64
    /// The installed revision, for an update.
    package var installedRevision: Int64?
    /// Usually `readyToDownload` or `updateAvailable`.
    package var syncState: SyncState
    /// The package the server describes (size, blob id), if any.
    package var package: ContentPackageRecord?
}

/// The result of `sclm sync`.
package struct SyncReport: Sendable, Equatable, Encodable {
    /// The metadata phase.
    package var metadata: MetadataReport
    /// The content phase (`nil` for a metadata-only sync).
    package var content: ContentReport?
    /// Presentations whose content is not installed at the server's revision after the sync.
    package var pendingContent: [ContentCandidate]

    /// Whether nothing failed (presentations another process was installing are not failures).
    package var isSuccess: Bool { metadata.failures.isEmpty && (content?.failures.isEmpty ?? true) }
}
