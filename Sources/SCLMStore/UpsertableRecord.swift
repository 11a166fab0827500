/// A record kept in one table under an integer primary key and written with ``Database/upsert(_:)``.
///
/// Conforming types list their server-side columns (primary key first) and bind their values in that
/// order; local state columns of a table (`syncState`, `installedRevision`, …) are never listed, so an
/// upsert leaves them alone.
package protocol UpsertableRecord: Sendable {
    /// The table.
    static var table: String { get }
    /// The columns written, the primary key first, in ``bind(_:)`` order.
    static var columns: [String] { get }
    /// The primary key value.
    var primaryKey: Int64 { get }
    /// Binds every column value in ``columns`` order.
    ///
    /// - Throws: ``StoreError``.
    func bind(_ binder: inout ColumnBinder) throws
}

/// Binds values to consecutive parameters of a statement without boxing them.
package struct ColumnBinder {
    private let statement: Statement
    private var index = 1

    init(_ statement: Statement) { self.statement = statement }

    /// Binds an integer to the next parameter.
    ///
    /// - Throws: ``StoreError``.
    package mutating func callAsFunction(_ value: Int64) throws {
        try statement.bind(value, at: index)
        index += 1
    }

    /// Binds an optional integer (`nil` is `NULL`) to the next parameter.
    ///
    /// - Throws: ``StoreError``.
    package mutating func callAsFunction(_ value: Int64?) throws {
        try statement.bind(value.map(DatabaseValue.integer) ?? .null, at: index)
        index += 1
    }

    /// Binds a boolean as 0/1 to the next parameter.
    ///
    /// - Throws: ``StoreError``.
    package mutating func callAsFunction(_ value: Bool) throws {
        try callAsFunction(Int64(value ? 1 : 0))
    }

    /// Binds text (`nil` is `NULL`) to the next parameter.
    ///
    /// - Throws: ``StoreError``.
    package mutating func callAsFunction(_ value: String?) throws {
        try statement.bind(value, at: index)
        index += 1
    }
}

extension UpsertableRecord {
    static var quotedColumns: [String] { columns.map { "\"\($0)\"" } }

    // An UPDATE-then-INSERT pair instead of one `INSERT … ON CONFLICT DO UPDATE`: the upsert's update
    // branch always uses ABORT conflict handling, which makes SQLite keep a statement journal (a copy of
    // every touched page) per row inside a transaction. With `OR ROLLBACK` and deferred foreign keys
    // neither statement needs one, which makes bulk upserts about a third faster. A constraint failure
    // still undoes the whole transaction, which is what ``Database/write(_:)`` does on any error anyway.
    static var updateSQL: String {
        let assignments = quotedColumns.enumerated().dropFirst().map { "\($0.element) = ?\($0.offset + 1)" }
        return "UPDATE OR ROLLBACK \(table) SET \(assignments.joined(separator: ", ")) WHERE \(quotedColumns[0]) = ?1"
    }

    static var insertSQL: String {
        let placeholders = columns.indices.map { "?\($0 + 1)" }
        return
            "INSERT OR ROLLBACK INTO \(table)(\(quotedColumns.joined(separator: ", "))) VALUES (\(placeholders.joined(separator: ", ")))"
    }
}

extension Database {
    /// The primary keys of every stored row of `R`'s table.
    ///
    /// - Throws: ``StoreError``.
    package func primaryKeys<R: UpsertableRecord>(of type: R.Type) throws -> Set<Int64> {
        let statement = try cachedStatement("SELECT \(R.quotedColumns[0]) FROM \(R.table)")
        defer { statement.reset() }
        var keys = Set<Int64>()
        while try statement.step() { keys.insert(statement.int64(at: 0)) }
        return keys
    }

    /// Inserts or updates `records`; columns the record type does not list are left alone. Call inside
    /// ``write(_:)`` so all rows land in one transaction.
    ///
    /// - Throws: ``StoreError`` (e.g. a foreign-key failure, reported at commit).
    package func upsert<R: UpsertableRecord>(_ records: some Sequence<R>) throws {
        var existing = try primaryKeys(of: R.self)
        let update = try cachedStatement(R.updateSQL)
        let insert = try cachedStatement(R.insertSQL)
        for record in records {
            let statement = existing.insert(record.primaryKey).inserted ? insert : update
            var binder = ColumnBinder(statement)
            try record.bind(&binder)
            try statement.execute()
        }
    }
}
