/// The server-side fields of one media file, as stored in `media_files` (the local `installedRevision`
/// is not part of it).
package struct MediaFileRecord: Sendable, Equatable, Codable {
    package var mediaFileId: Int64
    package var presentationId: Int64
    package var position: Int64
    package var revision: Int64
    package var fileName: String
    package var title: String?
    package var blobId: String?
    package var mimeType: String?
    package var fileSize: Int64
    package var isAvailableForSharing: Bool
    package var created: String?
    package var updatedDate: String?

    /// Creates a record.
    package init(
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
    package init(row: Row) throws {
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
    package static let table = "media_files"
    package static let columns = [
        "mediaFileId", "presentationId", "position", "revision", "fileName", "title", "blobId", "mimeType", "fileSize",
        "isAvailableForSharing", "created", "updatedDate",
    ]
    package var primaryKey: Int64 { mediaFileId }

    package func bind(_ bind: inout ColumnBinder) throws {
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
