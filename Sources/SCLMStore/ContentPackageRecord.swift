/// A presentation's content package as the server describes it (`sourcesFolder`), stored in
/// `content_packages` under the presentation's id. There is no checksum: `fileSize` and the zip's own
/// CRCs are the integrity checks.
package struct ContentPackageRecord: Sendable, Equatable, Codable {
    package var presentationId: Int64
    package var contentPackageId: Int64
    package var revision: Int64
    package var blobId: String?
    package var fileSize: Int64
    package var mimeType: String?
    package var created: String?
    package var updatedDate: String?

    /// Creates a record.
    package init(
        presentationId: Int64, contentPackageId: Int64, revision: Int64, blobId: String? = nil, fileSize: Int64 = 0,
        mimeType: String? = nil, created: String? = nil, updatedDate: String? = nil
    ) {
        self.presentationId = presentationId
        self.contentPackageId = contentPackageId
        self.revision = revision
        self.blobId = blobId
        self.fileSize = fileSize
        self.mimeType = mimeType
        self.created = created
        self.updatedDate = updatedDate
    }

    /// Reads a record from a `content_packages` row.
    ///
    /// - Throws: ``StoreError`` (`.decoding`) naming a missing or mistyped column.
    package init(row: Row) throws {
        let columns = ColumnReader(row, table: Self.table)
        self.init(
            presentationId: try columns.int64("presentationId"),
            contentPackageId: try columns.int64("contentPackageId"),
            revision: try columns.int64("revision"), blobId: try columns.optionalText("blobId"),
            fileSize: try columns.int64("fileSize"), mimeType: try columns.optionalText("mimeType"),
            created: try columns.optionalText("created"), updatedDate: try columns.optionalText("updatedDate"))
    }
}

extension ContentPackageRecord: UpsertableRecord {
    package static let table = "content_packages"
    package static let columns = [
        "presentationId", "contentPackageId", "revision", "blobId", "fileSize", "mimeType", "created", "updatedDate",
    ]
    package var primaryKey: Int64 { presentationId }

    package func bind(_ bind: inout ColumnBinder) throws {
        try bind(presentationId)
        try bind(contentPackageId)
        try bind(revision)
        try bind(blobId)
        try bind(fileSize)
        try bind(mimeType)
        try bind(created)
        try bind(updatedDate)
    }
}
