/// The server-side fields of one presentation, as stored in `presentations`.
///
/// Local state (`syncState`, `installedRevision`, `opened`, …) is not part of the record: an upsert
/// never overwrites it. Names follow StoryContent (`reference/storyclm.md` §1.4–1.5).
public struct PresentationRecord: Sendable, Equatable, Codable {
    public var presentationId: Int64
    public var clientId: Int64
    public var name: String
    public var shortDescription: String?
    public var longDescription: String?
    public var imgId: String?
    public var thumbImgId: String?
    public var order: Int64
    public var revision: Int64
    public var created: String?
    public var updatedDate: String?
    public var debugModeEnabled: Bool
    public var skip: Bool
    public var lockout: Bool
    public var mapEnabled: Bool
    public var mapType: Int64
    public var map: String?
    public var needConfirmation: Bool
    public var previewMode: Int64
    public var visibility: Bool
    /// The presentation JSON as the server sent it.
    public var rawData: String?

    /// Creates a record; optional fields default to StoryContent's defaults.
    public init(
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

extension Database {
    // An UPDATE-then-INSERT pair instead of one `INSERT … ON CONFLICT DO UPDATE`: the upsert's update
    // branch always uses ABORT conflict handling, which makes SQLite keep a statement journal (a copy of
    // every touched page) per row inside a transaction. With `OR ROLLBACK` and deferred foreign keys
    // neither statement needs one, which makes bulk upserts about a third faster. A constraint failure
    // still undoes the whole transaction, which is what ``write(_:)`` does on any error anyway.
    private static let updatePresentationSQL = """
        UPDATE OR ROLLBACK presentations SET clientId = ?2, name = ?3, shortDescription = ?4,
            longDescription = ?5, imgId = ?6, thumbImgId = ?7, "order" = ?8, revision = ?9, created = ?10,
            updatedDate = ?11, debugModeEnabled = ?12, skip = ?13, lockout = ?14, mapEnabled = ?15,
            mapType = ?16, map = ?17, needConfirmation = ?18, previewMode = ?19, visibility = ?20, rawData = ?21
        WHERE presentationId = ?1
        """
    private static let insertPresentationSQL = """
        INSERT OR ROLLBACK INTO presentations(presentationId, clientId, name, shortDescription, longDescription,
            imgId, thumbImgId, "order", revision, created, updatedDate, debugModeEnabled, skip, lockout,
            mapEnabled, mapType, map, needConfirmation, previewMode, visibility, rawData)
        VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15, ?16, ?17, ?18, ?19, ?20, ?21)
        """

    /// The ids of every stored presentation.
    ///
    /// - Throws: ``StoreError``.
    public func presentationIds() throws -> Set<Int64> {
        let statement = try cachedStatement("SELECT presentationId FROM presentations")
        defer { statement.reset() }
        var ids = Set<Int64>()
        while try statement.step() { ids.insert(statement.int64(at: 0)) }
        return ids
    }

    /// Inserts or updates `records`; local state columns of existing rows are left alone. Call inside
    /// ``write(_:)`` so all rows land in one transaction.
    ///
    /// - Throws: ``StoreError`` (e.g. a foreign-key failure for an unknown client, reported at commit).
    public func upsertPresentations(_ records: some Sequence<PresentationRecord>) throws {
        var existing = try presentationIds()
        let update = try cachedStatement(Database.updatePresentationSQL)
        let insert = try cachedStatement(Database.insertPresentationSQL)
        for record in records {
            let isNew = existing.insert(record.presentationId).inserted
            try record.execute(isNew ? insert : update)
        }
    }
}

extension PresentationRecord {
    /// Binds the record to parameters ?1…?21 and runs `statement` once.
    func execute(_ statement: Statement) throws {
        try statement.bind(presentationId, at: 1)
        try statement.bind(clientId, at: 2)
        try statement.bind(order, at: 8)
        try statement.bind(revision, at: 9)
        try statement.bind(debugModeEnabled ? 1 : 0, at: 12)
        try statement.bind(skip ? 1 : 0, at: 13)
        try statement.bind(lockout ? 1 : 0, at: 14)
        try statement.bind(mapEnabled ? 1 : 0, at: 15)
        try statement.bind(mapType, at: 16)
        try statement.bind(needConfirmation ? 1 : 0, at: 18)
        try statement.bind(previewMode, at: 19)
        try statement.bind(visibility ? 1 : 0, at: 20)
        try statement.bind(name, at: 3)
        try statement.bind(shortDescription, at: 4)
        try statement.bind(longDescription, at: 5)
        try statement.bind(imgId, at: 6)
        try statement.bind(thumbImgId, at: 7)
        try statement.bind(created, at: 10)
        try statement.bind(updatedDate, at: 11)
        try statement.bind(map, at: 17)
        try statement.bind(rawData, at: 21)
        try statement.execute()
    }
}
