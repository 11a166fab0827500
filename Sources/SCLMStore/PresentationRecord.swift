/// The server-side fields of one presentation, as stored in `presentations`.
///
/// Local state (`syncState`, `installedRevision`, `opened`, …) is not part of the record: an upsert
/// never overwrites it. Names follow StoryContent (StoryContent's Core Data model).
package struct PresentationRecord: Sendable, Equatable, Codable {
    package var presentationId: Int64
    package var clientId: Int64
    package var name: String
    package var shortDescription: String?
    package var longDescription: String?
    package var imgId: String?
    package var thumbImgId: String?
    package var order: Int64
    package var revision: Int64
    package var created: String?
    package var updatedDate: String?
    package var debugModeEnabled: Bool
    package var skip: Bool
    package var lockout: Bool
    package var mapEnabled: Bool
    package var mapType: Int64
    package var map: String?
    package var needConfirmation: Bool
    package var previewMode: Int64
    package var visibility: Bool
    /// The presentation JSON as the server sent it.
    package var rawData: String?

    /// Creates a record; optional fields default to StoryContent's defaults.
    package init(
        presentationId: Int64, clientId: Int64, name: String, shortDescription: String? = nil,
        longDescription: String? = nil, imgId: String? = nil, thumbImgId: String? = nil, order: Int64 = -1,
        revision: Int64, created: String? = nil, updatedDate: String? = nil, debugModeEnabled: Bool = false,
        skip: Bool = false, lockout: Bool = false, mapEnabled: Bool = true, mapType: Int64 = 0, map: String? = nil,
        needConfirmation: Bool = false, previewMode: Int64 = 0, visibility: Bool = true, rawData: String? = nil
    ) {
        self.presentationId = presentationId
        self.clientId = clientId
        self.name = name
        self.shortDescription = shortDescription
        self.longDescription = longDescription
        self.imgId = imgId
        self.thumbImgId = thumbImgId
        self.order = order
        self.revision = revision
        self.created = created
        self.updatedDate = updatedDate
        self.debugModeEnabled = debugModeEnabled
        self.skip = skip
        self.lockout = lockout
        self.mapEnabled = mapEnabled
        self.mapType = mapType
        self.map = map
        self.needConfirmation = needConfirmation
        self.previewMode = previewMode
        self.visibility = visibility
        self.rawData = rawData
    }
}

extension PresentationRecord: UpsertableRecord {
    package static let table = "presentations"
    package static let columns = [
        "presentationId", "clientId", "name", "shortDescription", "longDescription", "imgId", "thumbImgId", "order",
        "revision", "created", "updatedDate", "debugModeEnabled", "skip", "lockout", "mapEnabled", "mapType", "map",
        "needConfirmation", "previewMode", "visibility", "rawData",
    ]
    package var primaryKey: Int64 { presentationId }

    package func bind(_ bind: inout ColumnBinder) throws {
        try bind(presentationId)
        try bind(clientId)
        try bind(name)
        try bind(shortDescription)
        try bind(longDescription)
        try bind(imgId)
        try bind(thumbImgId)
        try bind(order)
        try bind(revision)
        try bind(created)
        try bind(updatedDate)
        try bind(debugModeEnabled)
        try bind(skip)
        try bind(lockout)
        try bind(mapEnabled)
        try bind(mapType)
        try bind(map)
        try bind(needConfirmation)
        try bind(previewMode)
        try bind(visibility)
        try bind(rawData)
    }

    /// Reads a record from a `presentations` row.
    ///
    /// - Throws: ``StoreError`` (`.decoding`) naming a missing or mistyped column.
    package init(row: Row) throws {
        let columns = ColumnReader(row, table: Self.table)
        self.init(
            presentationId: try columns.int64("presentationId"), clientId: try columns.int64("clientId"),
            name: try columns.text("name"), shortDescription: try columns.optionalText("shortDescription"),
            longDescription: try columns.optionalText("longDescription"), imgId: try columns.optionalText("imgId"),
            thumbImgId: try columns.optionalText("thumbImgId"), order: try columns.int64("order"),
            revision: try columns.int64("revision"), created: try columns.optionalText("created"),
            updatedDate: try columns.optionalText("updatedDate"),
            debugModeEnabled: try columns.bool("debugModeEnabled"),
            skip: try columns.bool("skip"), lockout: try columns.bool("lockout"),
            mapEnabled: try columns.bool("mapEnabled"), mapType: try columns.int64("mapType"),
            map: try columns.optionalText("map"), needConfirmation: try columns.bool("needConfirmation"),
            previewMode: try columns.int64("previewMode"), visibility: try columns.bool("visibility"),
            rawData: try columns.optionalText("rawData"))
    }
}

extension Database {
    /// Inserts or updates `records`; local state columns of existing rows are left alone. Call inside
    /// ``write(_:)`` so all rows land in one transaction.
    ///
    /// - Throws: ``StoreError`` (e.g. a foreign-key failure for an unknown client, reported at commit).
    package func upsertPresentations(_ records: some Sequence<PresentationRecord>) throws {
        try upsert(records)
    }
}
