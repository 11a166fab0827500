/// Where a presentation stands in sync, as StoryContent's `Presentation.syncState` (docs/data.md).
package enum SyncState: Int64, Sendable, Codable, CaseIterable, CustomStringConvertible {
    /// Metadata only (e.g. a `skip` presentation that is never downloaded).
    case metadataOnly = 0
    /// New on the server; its content can be downloaded.
    case readyToDownload = 1
    /// Waiting for a download slot.
    case queued = 2
    /// Installed, and the server has a newer revision.
    case updateAvailable = 3
    /// Being downloaded or installed.
    case downloading = 4
    /// Installed at the server's revision.
    case installed = 5

    /// Words for `sclm list`.
    package var description: String {
        switch self {
        case .metadataOnly: "metadata only"
        case .readyToDownload: "ready to download"
        case .queued: "queued"
        case .updateAvailable: "update available"
        case .downloading: "downloading"
        case .installed: "installed"
        }
    }

    /// One word for `--json`.
    package var name: String {
        switch self {
        case .metadataOnly: "metadataOnly"
        case .readyToDownload: "readyToDownload"
        case .queued: "queued"
        case .updateAvailable: "updateAvailable"
        case .downloading: "downloading"
        case .installed: "installed"
        }
    }

    /// The state whose ``name`` is `name`, if any.
    package init?(name: String) {
        guard let state = SyncState.allCases.first(where: { $0.name == name }) else { return nil }
        self = state
    }
}

extension SyncState {
    /// The state of a presentation after its metadata was stored: installed content is current or has an
    /// update; otherwise it is ready to download, unless the server says to skip it.
    package static func afterMetadata(revision: Int64, installedRevision: Int64?, skip: Bool) -> SyncState {
        if let installedRevision { return installedRevision == revision ? .installed : .updateAvailable }
        return skip ? .metadataOnly : .readyToDownload
    }
}
