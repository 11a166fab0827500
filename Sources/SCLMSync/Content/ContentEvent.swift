import SCLMCore

/// What the content phase reports while it runs: `planned` once, then per presentation `started`,
/// `progress`…, and `installed` or `failed`; `skipped` and `busy` stand alone.
///
/// Each event encodes as one flat JSON object with an `event` key (the `--json` lines of `sclm sync`;
/// the schema is in docs/cli.md).
package enum ContentEvent: Sendable, Equatable, Encodable {
    /// What the phase is about to do.
    case planned(Plan)
    /// Work on a presentation began (its lock is held).
    case started(Start)
    /// Bytes moved in one phase of a presentation (at most every 100 ms per presentation).
    case progress(Progress)
    /// A presentation's new revision is installed and recorded.
    case installed(InstalledPresentation)
    /// A presentation could not be installed; its previous revision (if any) is untouched.
    case failed(Failure)
    /// A selected presentation the server marks `skip`: never downloaded.
    case skipped(Note)
    /// Another sclm process holds the presentation's lock; it was left to that process.
    case busy(Note)

    /// The phase's plan.
    package struct Plan: Sendable, Equatable, Encodable {
        /// Presentations to download and install.
        package var presentations: Int
        /// Their package sizes added up, as the catalog has them.
        package var bytes: Int64
        /// Selected presentations the server marks `skip`.
        package var skipped: Int
        /// Selected presentations already installed at the server's revision.
        package var upToDate: Int
    }

    /// The beginning of a presentation's download and install.
    package struct Start: Sendable, Equatable, Encodable {
        package var presentationId: Int64
        package var clientId: Int64
        package var name: String
        /// The revision being installed.
        package var revision: Int64
        /// The revision installed before, if any.
        package var installedRevision: Int64?
        /// The package size the server announced (0 when unknown).
        package var bytes: Int64
        /// Bytes already in the cache from an earlier, interrupted run.
        package var cachedBytes: Int64

        private enum CodingKeys: String, CodingKey {
            case presentationId, clientId, name, revision, installedRevision, bytes, cachedBytes
        }

        package func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(presentationId, forKey: .presentationId)
            try container.encode(clientId, forKey: .clientId)
            try container.encode(name, forKey: .name)
            try container.encode(revision, forKey: .revision)
            try container.encode(installedRevision, forKey: .installedRevision)  // null when none
            try container.encode(bytes, forKey: .bytes)
            try container.encode(cachedBytes, forKey: .cachedBytes)
        }
    }

    /// The stage a progress event is about.
    package enum Phase: String, Sendable, Equatable, Encodable {
        /// Downloading the package.
        case download
        /// Unpacking it into the staging folder.
        case unpack
        /// Downloading media files the package does not contain.
        case media
    }

    /// Progress of one phase.
    package struct Progress: Sendable, Equatable, Encodable {
        package var presentationId: Int64
        package var phase: Phase
        /// Bytes done: in the package file (download, including resumed bytes), written (unpack), or of
        /// the current media file.
        package var bytes: Int64
        /// The total for this phase (0 when unknown).
        package var totalBytes: Int64
    }

    /// Why a presentation failed.
    package struct Failure: Sendable, Equatable, Encodable {
        package var presentationId: Int64
        package var name: String
        /// The error's category (`archive`, `network`, `storage`, …).
        package var category: ErrorCategory
        /// What failed and what to do; a refused package names the rule it broke.
        package var message: String
    }

    /// A presentation that was not worked on, and why.
    package struct Note: Sendable, Equatable, Encodable {
        package var presentationId: Int64
        package var name: String
        package var reason: String
    }

    /// The presentation the event is about (`nil` for `planned`).
    package var presentationId: Int64? {
        switch self {
        case .planned: nil
        case .started(let start): start.presentationId
        case .progress(let progress): progress.presentationId
        case .installed(let installed): installed.presentationId
        case .failed(let failure): failure.presentationId
        case .skipped(let note), .busy(let note): note.presentationId
        }
    }

    /// The `event` value of the JSON line.
    package var name: String {
        switch self {
        case .planned: "planned"
        case .started: "started"
        case .progress: "progress"
        case .installed: "installed"
        case .failed: "failed"
        case .skipped: "skipped"
        case .busy: "busy"
        }
    }

    private enum CodingKeys: String, CodingKey { case event }

    package func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(name, forKey: .event)
        switch self {
        case .planned(let plan): try plan.encode(to: encoder)
        case .started(let start): try start.encode(to: encoder)
        case .progress(let progress): try progress.encode(to: encoder)
        case .installed(let installed): try installed.encode(to: encoder)
        case .failed(let failure): try failure.encode(to: encoder)
        case .skipped(let note), .busy(let note): try note.encode(to: encoder)
        }
    }
}
