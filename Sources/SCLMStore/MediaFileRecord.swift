/// The server-side fields of one media file, as stored in `media_files` (the local `installedRevision`
/// is not part of it).
public struct MediaFileRecord: Sendable, Equatable, Codable {
    public var mediaFileId: Int64
    public var presentationId: Int64
    public var position: Int64
    public var revision: Int64
    public var fileName: String
    public var title: String?
    public var blobId: String?
    public var mimeType: String?
    public var fileSize: Int64
    public var isAvailableForSharing: Bool
    public var created: String?
    public var updatedDate: String?

    /// Creates a record.
    public init(
        mediaFileId: Int64, presentationId: Int64, position: Int64 = 0, revision: Int64, fileName: String,
        title: String? = nil, blobId: String? = nil, mimeType: String? = nil, fileSize: Int64 = 0,
        isAvailableForSharing: Bool = true, created: String? = nil, updatedDate: String? = nil
    ) {
        self.mediaFileId = mediaFileId
        self.presentationId = presentationId
        self.position = position
        self.revision = revision
        self.fileName = fileName
        self.title = title
        self.blobId = blobId
        self.mimeType = mimeType
        self.fileSize = fileSize
        self.isAvailableForSharing = isAvailableForSharing
        self.created = created
        self.updatedDate = updatedDate
    }

    /// Reads a record from a `media_files` row.
    ///
    /// - Throws: ``StoreError`` (`.decoding`) naming a missing or mistyped column.
    public init(row: Row) throws {
        let columns = ColumnReader(row, table: Self.table)
        self.init(
            mediaFileId: try columns.int64("mediaFileId"), presentationId: try columns.int64("presentationId"),
            position: try columns.int64("position"), revision: try columns.int64("revision"),
            fileName: try columns.text("fileName"), title: try columns.optionalText("title"),
            blobId: try columns.optionalText("blobId"), mimeType: try columns.optionalText("mimeType"),
            fileSize: try columns.int64("fileSize"), isAvailableForSharing: try columns.bool("isAvailableForSharing"),
            created: try columns.optionalText("created"), updatedDate: try columns.optionalText("updatedDate"))
    }
}

extension MediaFileRecord: UpsertableRecord {
    public static let table = "media_files"
    public static let columns = [
        "mediaFileId", "presentationId", "position", "revision", "fileName", "title", "blobId", "mimeType", "fileSize",
        "isAvailableForSharing", "created", "updatedDate",
    ]
    public var primaryKey: Int64 { mediaFileId }

    public func bind(_ bind: inout ColumnBinder) throws {
        try bind(mediaFileId)
        try bind(presentationId)
        try bind(position)
        try bind(revision)
        try bind(fileName)
        try bind(title)
        try bind(blobId)
        try bind(mimeType)
        try bind(fileSize)
        try bind(isAvailableForSharing)
        try bind(created)
        try bind(updatedDate)
    }
}
