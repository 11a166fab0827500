/// The reads content may make through the bridge, each limited to a ``ContentScope``.
extension Database {
    /// The presentation `presentationId` with its local state, if it exists and (with a scope) belongs to the
    /// scope's client.
    ///
    /// - Throws: ``StoreError``.
    package func storedPresentation(id presentationId: Int64, in scope: ContentScope?) throws -> StoredPresentation? {
        try presentationRow(id: presentationId, in: scope).map(StoredPresentation.init(row:))
    }

    /// The `presentations` row of `presentationId`, if it exists and (with a scope) belongs to its client. Package
    /// access: other modules read the decoded ``storedPresentation(id:in:)``.
    ///
    /// - Throws: ``StoreError``.
    package func presentationRow(id presentationId: Int64, in scope: ContentScope?) throws -> Row? {
        guard let scope else {
            return try fetchOne("SELECT * FROM presentations WHERE presentationId = ?", [presentationId])
        }
        let visible = scope.presentationCondition("presentationId")
        return try fetchOne(
            "SELECT * FROM presentations WHERE presentationId = ? AND \(visible.sql)",
            [presentationId] + visible.arguments)
    }

    /// The installed presentations of the scope's client, highest `order` first.
    ///
    /// - Throws: ``StoreError``.
    package func installedPresentations(in scope: ContentScope) throws -> [PresentationSummary] {
        try fetchAll(
            """
            SELECT * FROM presentations WHERE clientId = ? AND installedRevision IS NOT NULL
            ORDER BY "order" DESC, name, presentationId
            """, [scope.clientId]
        ).map(PresentationSummary.init(row:))
    }

    /// Every visible session, oldest first.
    ///
    /// - Throws: ``StoreError``.
    package func sessions(in scope: ContentScope) throws -> [SessionRecord] {
        let visible = scope.sessionCondition("s")
        return try fetchAll(
            "SELECT s.* FROM sessions s WHERE \(visible.sql) ORDER BY s.created, s.rowid", visible.arguments
        )
        .map(SessionRecord.init(row:))
    }

    /// The session `sessionId`, if it exists and is visible.
    ///
    /// - Throws: ``StoreError``.
    package func session(id sessionId: String, in scope: ContentScope) throws -> SessionRecord? {
        let visible = scope.sessionCondition("s")
        return try fetchOne(
            "SELECT s.* FROM sessions s WHERE s.sessionId = ? AND \(visible.sql)", [sessionId] + visible.arguments
        )
        .map(SessionRecord.init(row:))
    }

    /// Every key and value of a session and presentation, or `nil` when the session is not visible or the
    /// presentation is not the client's.
    ///
    /// - Throws: ``StoreError``.
    package func customEvents(sessionId: String, presentationId: Int64, in scope: ContentScope) throws -> [String:
        String]?
    {
        guard try session(id: sessionId, in: scope) != nil, try presentationRow(id: presentationId, in: scope) != nil
        else {
            return nil
        }
        var values: [String: String] = [:]
        for row in try fetchAll(
            "SELECT key, value FROM custom_events WHERE sessionId = ? AND presentationId = ? ORDER BY created, rowid",
            [sessionId, presentationId])
        {
            let columns = ColumnReader(row, table: AnalyticsTable.customEvents.name)
            values[try columns.text("key")] = try columns.text("value")
        }
        return values
    }
}

/// The SQL conditions a ``ContentScope`` adds to the queries it limits.
extension ContentScope {
    /// The SQL condition that `column` (a presentation id) names a presentation of the client, and its argument.
    func presentationCondition(_ column: String) -> (sql: String, arguments: [any DatabaseValueConvertible]) {
        ("\(column) IN (SELECT presentationId FROM presentations WHERE clientId = ?)", [clientId])
    }

    /// The SQL condition that the `sessions` row `alias` is visible, and its arguments.
    func sessionCondition(_ alias: String) -> (sql: String, arguments: [any DatabaseValueConvertible]) {
        let presentation = presentationCondition("\(alias).presentationId")
        guard case .user(let userId) = sessionOwners else { return presentation }
        return (presentation.sql + " AND \(alias).userId IS ?", presentation.arguments + [userId])
    }
}
