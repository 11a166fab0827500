import SCLMStore

/// One presentation the content phase installs, as stored when its lock was taken.
struct ContentJob: Sendable, Equatable {
    var summary: PresentationSummary
    /// The package record from the metadata phase (its size checks a cached zip; the download itself uses
    /// the fresh record `GET /v1/contentpackages/{id}` returns).
    var package: ContentPackageRecord?
    var mediaFiles: [MediaFileRecord]

    var presentationId: Int64 { summary.presentationId }
    var clientId: Int64 { summary.clientId }
    var revision: Int64 { summary.revision }

    /// The stored state of presentation `id`, or `nil` when it is no longer stored.
    ///
    /// - Throws: ``StoreError``.
    static func load(_ id: Int64, from db: Database) throws -> ContentJob? {
        guard let summary = try db.presentationSummary(id: id) else { return nil }
        return ContentJob(
            summary: summary, package: try db.contentPackage(ofPresentation: id),
            mediaFiles: try db.mediaFiles(ofPresentation: id))
    }
}
