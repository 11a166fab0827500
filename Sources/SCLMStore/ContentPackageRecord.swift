/// A presentation's content package as the server describes it (`sourcesFolder`), stored in
/// `content_packages` under the presentation's id. There is no checksum: `fileSize` and the zip's own
/// CRCs are the integrity checks.
public struct ContentPackageRecord: Sendable, Equatable, Codable {
    public var presentationId: Int64
    public var contentPackageId: Int64
    public var revision: Int64
    public var blobId: String?
    public var fileSize: Int64
    public var mimeType: String?
    public var created: String?
    public var updatedDate: String?

    /// Creates a record.
    public init(
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
    public init(row: Row) throws {
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
    public static let table = "content_packages"
    public static let columns = [
        "presentationId", "contentPackageId", "revision", "blobId", "fileSize", "mimeType", "created", "updatedDate",
    ]
    public var primaryKey: Int64 { presentationId }

    public func bind(_ bind: inout ColumnBinder) throws {
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
