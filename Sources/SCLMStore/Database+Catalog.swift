/// One stored presentation as sync and `sclm list` see it: server revision, local state, flags.
package struct PresentationSummary: Sendable, Equatable, Codable {
    package var presentationId: Int64
    package var clientId: Int64
    package var name: String
    package var order: Int64
    package var revision: Int64
    /// The revision whose content is installed, if any.
    package var installedRevision: Int64?
    package var syncState: SyncState
    package var skip: Bool
    package var lockout: Bool
    package var debugModeEnabled: Bool
    package var visibility: Bool
    package var updatedDate: String?
    /// Why the last attempt to install it failed (`nil` after a success, or before any attempt).
    package var syncError: String?
    /// Its unpacks that never ended (the mark of one in progress, interruptions in a row).
    package var unpack: UnpackAttempts

    /// Creates a summary; the defaults are those of a new `presentations` row.
    package init(
        presentationId: Int64, clientId: Int64, name: String = "", order: Int64 = -1, revision: Int64,
        installedRevision: Int64? = nil, syncState: SyncState = .metadataOnly, skip: Bool = false,
        lockout: Bool = false, debugModeEnabled: Bool = false, visibility: Bool = true, updatedDate: String? = nil,
        syncError: String? = nil, unpack: UnpackAttempts = UnpackAttempts()
    ) {
        self.presentationId = presentationId
        self.clientId = clientId
        self.name = name
        self.order = order
        self.revision = revision
        self.installedRevision = installedRevision
        self.syncState = syncState
        self.skip = skip
        self.lockout = lockout
        self.debugModeEnabled = debugModeEnabled
        self.visibility = visibility
        self.updatedDate = updatedDate
        self.syncError = syncError
        self.unpack = unpack
    }

    /// Reads a summary from a `presentations` row.
    ///
    /// - Throws: ``StoreError`` (`.decoding`) naming a missing or mistyped column.
    package init(row: Row) throws {
        let columns = ColumnReader(row, table: PresentationRecord.table)
        self.init(
            presentationId: try columns.int64("presentationId"), clientId: try columns.int64("clientId"),
            name: try columns.text("name"), order: try columns.int64("order"), revision: try columns.int64("revision"),
            installedRevision: try columns.optionalInt64("installedRevision"),
            syncState: try columns.value("syncState"),
            skip: try columns.bool("skip"), lockout: try columns.bool("lockout"),
            debugModeEnabled: try columns.bool("debugModeEnabled"), visibility: try columns.bool("visibility"),
            updatedDate: try columns.optionalText("updatedDate"), syncError: try columns.optionalText("syncError"),
            unpack: try UnpackAttempts(columns: columns))
    }
}

/// Reads and bulk changes of the content catalog (clients, presentations, slides, media, packages) for
/// sync, `sclm list` and `sclm show`. Writes belong inside ``Database/write(_:)``.
extension Database {
    private static let summaryColumns = """
        presentationId, clientId, name, "order", revision, installedRevision, syncState, skip, lockout,
        debugModeEnabled, visibility, updatedDate, syncError, unpackRevision, interruptedRevision, unpackInterruptions
        """

    /// Every stored client, by name.
    ///
    /// - Throws: ``StoreError``.
    package func clients() throws -> [ClientRecord] {
        try fetchAll("SELECT * FROM clients ORDER BY name COLLATE NOCASE, clientId").map(ClientRecord.init(row:))
    }

    /// The name of client `id`, or `nil` when it is not stored.
    ///
    /// - Throws: ``StoreError``.
    package func clientName(id: Int64) throws -> String? {
        try fetchText("SELECT name FROM clients WHERE clientId = ?", [id], column: "name", table: ClientRecord.table)
    }

    /// How many clients, presentations (installed, with updates), slides and media files are stored.
    ///
    /// - Throws: ``StoreError``.
    package func catalogCounts() throws -> CatalogCounts {
        CatalogCounts(
            clients: try fetchCount("SELECT count(*) FROM clients"),
            presentations: try fetchCount("SELECT count(*) FROM presentations"),
            installed: try fetchCount("SELECT count(*) FROM presentations WHERE installedRevision IS NOT NULL"),
            updatesAvailable: try fetchCount(
                "SELECT count(*) FROM presentations WHERE syncState = ?", [SyncState.updateAvailable.rawValue]),
            slides: try fetchCount("SELECT count(*) FROM slides"),
            mediaFiles: try fetchCount("SELECT count(*) FROM media_files"))
    }

    /// Every stored presentation, by client, then `order` descending as StoryContent lists them.
    ///
    /// - Throws: ``StoreError``.
    package func presentationSummaries() throws -> [PresentationSummary] {
        try fetchAll(
            "SELECT \(Database.summaryColumns) FROM presentations ORDER BY clientId, \"order\" DESC, presentationId"
        )
        .map(PresentationSummary.init(row:))
    }

    /// One stored presentation's summary, or `nil`.
    ///
    /// - Throws: ``StoreError``.
    package func presentationSummary(id: Int64) throws -> PresentationSummary? {
        try fetchOne("SELECT \(Database.summaryColumns) FROM presentations WHERE presentationId = ?", [id])
            .map(PresentationSummary.init(row:))
    }

    /// One stored presentation's server fields, or `nil`.
    ///
    /// - Throws: ``StoreError``.
    package func presentation(id: Int64) throws -> PresentationRecord? {
        try fetchOne("SELECT * FROM presentations WHERE presentationId = ?", [id]).map(PresentationRecord.init(row:))
    }

    /// The slides of a presentation in order.
    ///
    /// - Throws: ``StoreError``.
    package func slides(ofPresentation id: Int64) throws -> [SlideRecord] {
        try fetchAll("SELECT * FROM slides WHERE presentationId = ? ORDER BY position, slideId", [id])
            .map(SlideRecord.init(row:))
    }

    /// The media files of a presentation in order.
    ///
    /// - Throws: ``StoreError``.
    package func mediaFiles(ofPresentation id: Int64) throws -> [MediaFileRecord] {
        try fetchAll("SELECT * FROM media_files WHERE presentationId = ? ORDER BY position, mediaFileId", [id])
            .map(MediaFileRecord.init(row:))
    }

    /// The content package of a presentation, or `nil`.
    ///
    /// - Throws: ``StoreError``.
    package func contentPackage(ofPresentation id: Int64) throws -> ContentPackageRecord? {
        try fetchOne("SELECT * FROM content_packages WHERE presentationId = ?", [id]).map(
            ContentPackageRecord.init(row:))
    }

    /// Deletes the content package row of a presentation the server no longer gives a package.
    ///
    /// - Throws: ``StoreError``.
    package func deleteContentPackage(ofPresentation id: Int64) throws {
        try execute("DELETE FROM content_packages WHERE presentationId = ?", [id])
    }

    /// Stored revisions of `R`'s rows (slides or media files), by primary key.
    ///
    /// - Throws: ``StoreError``.
    package func revisions<R: UpsertableRecord>(of type: R.Type) throws -> [Int64: Int64] {
        let statement = try cachedStatement("SELECT \(R.quotedColumns[0]), revision FROM \(R.table)")
        defer { statement.reset() }
        var revisions: [Int64: Int64] = [:]
        while try statement.step() { revisions[statement.int64(at: 0)] = statement.int64(at: 1) }
        return revisions
    }

    /// Deletes rows of `R`'s table (slides or media files) that belong to `presentationId` but are not in `keeping`.
    ///
    /// - Throws: ``StoreError``.
    package func deleteRows<R: UpsertableRecord>(
        of type: R.Type, ofPresentation presentationId: Int64, keeping: Set<Int64>
    ) throws {
        let key = R.quotedColumns[0]
        let stored = try fetchAll("SELECT \(key) FROM \(R.table) WHERE presentationId = ?", [presentationId])
            .map { try ColumnReader($0, table: R.table).int64(R.columns[0]) }
        for id in stored where !keeping.contains(id) {
            try execute("DELETE FROM \(R.table) WHERE \(key) = ?", [id])
        }
    }

    /// Moves rows of `R`'s table (slides or media files) to new list positions, by primary key.
    ///
    /// - Throws: ``StoreError``.
    package func setPositions<R: UpsertableRecord>(of type: R.Type, _ positions: [Int64: Int64]) throws {
        for (id, position) in positions {
            try execute("UPDATE \(R.table) SET position = ? WHERE \(R.quotedColumns[0]) = ?", [position, id])
        }
    }

    /// Deletes presentations (their slides, media files and package rows go with them).
    ///
    /// - Throws: ``StoreError``.
    package func deletePresentations(_ ids: some Sequence<Int64>) throws {
        for id in ids { try execute("DELETE FROM presentations WHERE presentationId = ?", [id]) }
    }

    /// Deletes clients and everything stored under them.
    ///
    /// - Throws: ``StoreError``.
    package func deleteClients(_ ids: some Sequence<Int64>) throws {
        for id in ids { try execute("DELETE FROM clients WHERE clientId = ?", [id]) }
    }

    /// Sets a presentation's sync state.
    ///
    /// - Throws: ``StoreError``.
    package func setSyncState(_ state: SyncState, presentationId: Int64) throws {
        try execute(
            "UPDATE presentations SET syncState = ? WHERE presentationId = ?", [state.rawValue, presentationId])
    }

    /// Updates the flags a client's presentation list carries (`skip`, `lockout`, `debug`) without a full upsert.
    ///
    /// - Throws: ``StoreError``.
    package func setListingFlags(presentationId: Int64, skip: Bool, lockout: Bool, debugModeEnabled: Bool) throws {
        try execute(
            "UPDATE presentations SET skip = ?, lockout = ?, debugModeEnabled = ? WHERE presentationId = ?",
            [skip, lockout, debugModeEnabled, presentationId])
    }
}
