/// The server-side fields of one client, as stored in `clients` (StoryContent's Core Data model).
package struct ClientRecord: Sendable, Equatable, Codable {
    package var clientId: Int64
    package var name: String
    package var shortDescription: String?
    package var longDescription: String?
    package var email: String?
    package var url: String?
    package var imgId: String?
    package var thumbImgId: String?
    package var lockoutEnabled: Bool
    package var created: String?
    package var updatedDate: String?
    /// When sclm last received this client from the server (ISO-8601 UTC).
    package var synchronized: String?

    /// Creates a record.
    package init(
        clientId: Int64, name: String, shortDescription: String? = nil, longDescription: String? = nil,
        email: String? = nil, url: String? = nil, imgId: String? = nil, thumbImgId: String? = nil,
        lockoutEnabled: Bool = false, created: String? = nil, updatedDate: String? = nil, synchronized: String? = nil
    ) {
        self.clientId = clientId
        self.name = name
        self.shortDescription = shortDescription
        self.longDescription = longDescription
        self.email = email
        self.url = url
        self.imgId = imgId
        self.thumbImgId = thumbImgId
        self.lockoutEnabled = lockoutEnabled
        self.created = created
        self.updatedDate = updatedDate
        self.synchronized = synchronized
    }

    /// Reads a record from a `clients` row.
    ///
    /// - Throws: ``StoreError`` (`.decoding`) naming a missing or mistyped column.
    package init(row: Row) throws {
        let columns = ColumnReader(row, table: Self.table)
        self.init(
            clientId: try columns.int64("clientId"), name: try columns.text("name"),
            shortDescription: try columns.optionalText("shortDescription"),
            longDescription: try columns.optionalText("longDescription"), email: try columns.optionalText("email"),
            url: try columns.optionalText("url"), imgId: try columns.optionalText("imgId"),
            thumbImgId: try columns.optionalText("thumbImgId"), lockoutEnabled: try columns.bool("lockoutEnabled"),
            created: try columns.optionalText("created"), updatedDate: try columns.optionalText("updatedDate"),
            synchronized: try columns.optionalText("synchronized"))
    }
}

extension ClientRecord: UpsertableRecord {
    package static let table = "clients"
    package static let columns = [
        "clientId", "name", "shortDescription", "longDescription", "email", "url", "imgId", "thumbImgId",
        "lockoutEnabled", "created", "updatedDate", "synchronized",
    ]
    package var primaryKey: Int64 { clientId }

    package func bind(_ bind: inout ColumnBinder) throws {
        try bind(clientId)
        try bind(name)
        try bind(shortDescription)
        try bind(longDescription)
        try bind(email)
        try bind(url)
        try bind(imgId)
        try bind(thumbImgId)
        try bind(lockoutEnabled)
        try bind(created)
        try bind(updatedDate)
        try bind(synchronized)
    }
}
