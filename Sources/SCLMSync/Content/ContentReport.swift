import SCLMStore

/// A presentation whose new revision was installed.
package struct InstalledPresentation: Sendable, Equatable, Encodable {
    package var presentationId: Int64
    package var name: String
    /// The revision now installed.
    package var revision: Int64
    /// The revision it replaced, if any.
    package var previousRevision: Int64?
    /// The installed folder (`content/<clientId>/<presentationId>/sources`).
    package var path: String
    /// Files unpacked from the package.
    package var files: Int
    /// Bytes unpacked from the package.
    package var unpackedBytes: Int64
    /// Bytes received over the network for it (package and media files; 0 when it came from the cache).
    package var downloadedBytes: Int64
    /// Media files downloaded because the package did not contain them.
    package var mediaFilesDownloaded: Int
    /// Wall time from taking its lock to recording the install.
    package var seconds: Double
    /// The package findings stored with the revision, by severity (content findings: a safety finding
    /// refuses the package).
    package var findings: PackageFindingCounts

    /// Creates a description of an install.
    package init(
        presentationId: Int64, name: String, revision: Int64, previousRevision: Int64?, path: String, files: Int,
        unpackedBytes: Int64, downloadedBytes: Int64, mediaFilesDownloaded: Int, seconds: Double,
        findings: PackageFindingCounts = PackageFindingCounts()
    ) {
        self.presentationId = presentationId
        self.name = name
        self.revision = revision
        self.previousRevision = previousRevision
        self.path = path
        self.files = files
        self.unpackedBytes = unpackedBytes
        self.downloadedBytes = downloadedBytes
        self.mediaFilesDownloaded = mediaFilesDownloaded
        self.seconds = seconds
        self.findings = findings
    }

    private enum CodingKeys: String, CodingKey {
        case presentationId, name, revision, previousRevision, path, files, unpackedBytes, downloadedBytes
        case mediaFilesDownloaded, seconds, findings
    }

    package func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(presentationId, forKey: .presentationId)
        try container.encode(name, forKey: .name)
        try container.encode(revision, forKey: .revision)
        try container.encode(previousRevision, forKey: .previousRevision)  // null for a first install
        try container.encode(path, forKey: .path)
        try container.encode(files, forKey: .files)
        try container.encode(unpackedBytes, forKey: .unpackedBytes)
        try container.encode(downloadedBytes, forKey: .downloadedBytes)
        try container.encode(mediaFilesDownloaded, forKey: .mediaFilesDownloaded)
        try container.encode(seconds, forKey: .seconds)
        try container.encode(findings, forKey: .findings)
    }
}

/// What the content phase did.
package struct ContentReport: Sendable, Equatable, Encodable {
    /// Presentations installed by this run.
    package var installed: [InstalledPresentation] = []
    /// Presentations that failed, each with the reason.
    package var failures: [SyncFailure] = []
    /// Presentations another sclm process was working on (not failures: that process installs them).
    package var busy: [Int64] = []
    /// Selected presentations the server marks `skip`.
    package var skipped: [Int64] = []
    /// Selected presentations already installed at the server's revision (including ones another process
    /// finished while this run waited).
    package var upToDate: [Int64] = []
    /// Bytes received for packages and media files.
    package var downloadedBytes: Int64 = 0
    /// Stale cache files removed (old revisions, presentations no longer listed).
    package var removedCacheFiles: Int = 0
    /// Set when the site cache (`sync.blobProxy`) could not be reached and blobs came from the origin
    /// directly: the notice, said once per run.
    package var blobProxyFallback: String?

    /// Creates an empty report.
    package init() {}
}
