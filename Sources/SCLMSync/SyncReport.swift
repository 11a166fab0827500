import SCLMCore
import SCLMStore

/// One presentation (or the whole listing) that could not be synced, for the summary.
public struct SyncFailure: Sendable, Equatable, Encodable {
    /// The presentation, when the failure concerns one.
    public var presentationId: Int64?
    /// What failed and what to do, in one sentence.
    public var message: String
    /// The failure's category (`network`, `temporary`, …).
    public var category: ErrorCategory

    /// Creates a failure from an error.
    public init(presentationId: Int64?, error: any Error) {
        self.presentationId = presentationId
        self.message = error.userMessage
        self.category = error.category
    }
}

/// What the metadata phase did.
public struct MetadataReport: Sendable, Equatable, Encodable {
    /// The synced clients.
    public var clientIds: [Int64]
    /// Presentations those clients list.
    public var presentations: Int
    /// Presentations stored for the first time.
    public var added: [Int64]
    /// Presentations whose new revision was stored.
    public var updated: [Int64]
    /// Presentations (and their content) removed because the server no longer lists them.
    public var removed: [Int64]
    /// Listed presentations that needed no request.
    public var unchanged: Int
    /// Presentations that could not be fetched; their stored state is kept.
    public var failures: [SyncFailure]
}

/// A presentation whose content is not installed at the server's revision (after a metadata-only sync,
/// or what a content phase could not install).
public struct ContentCandidate: Sendable, Equatable, Encodable {
    public var presentationId: Int64
    public var clientId: Int64
    public var name: String
    /// The server's revision.
    public var revision: Int64
    /// The installed revision, for an update.
    public var installedRevision: Int64?
    /// Usually `readyToDownload` or `updateAvailable`.
    public var syncState: SyncState
    /// The package the server describes (size, blob id), if any.
    public var package: ContentPackageRecord?
}

/// The result of `sclm sync`.
public struct SyncReport: Sendable, Equatable, Encodable {
    /// The metadata phase.
    public var metadata: MetadataReport
    /// The content phase (`nil` for a metadata-only sync).
    public var content: ContentReport?
    /// Presentations whose content is not installed at the server's revision after the sync.
    public var pendingContent: [ContentCandidate]

    /// Whether nothing failed (presentations another process was installing are not failures).
    public var isSuccess: Bool { metadata.failures.isEmpty && (content?.failures.isEmpty ?? true) }
}
