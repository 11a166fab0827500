import CSQLite
import Foundation
import SCLMCore

#if canImport(Glibc)
    import Glibc
#endif

/// One SQLite connection, configured for sclm (docs/data.md).
///
/// Opened with extended result codes, WAL journal, `synchronous=NORMAL`, `foreign_keys=ON` and a busy
/// timeout, so a second process that writes at the same time waits instead of failing. A `Database` is
/// not thread-safe: ``ContentStore`` confines it to one serial queue; use it directly only from one thread.
///
/// ```swift
/// let db = try Database(path: home.databasePath)
/// try db.write { db in try db.execute("DELETE FROM clients WHERE clientId = ?", [42]) }
/// let count = try db.fetchScalar("SELECT count(*) FROM clients", as: Int64.self)
/// ```
package final class Database {
    /// The file path, or `:memory:`.
    package let path: String
    let handle: OpaquePointer
    private var statementCache: [String: Statement] = [:]

    /// How long a statement waits for another connection's lock before failing with `SQLITE_BUSY`.
    package static let defaultBusyTimeout: Int32 = 5_000

    /// How a connection may use the file.
    package enum Access: Sendable, Equatable {
        /// Read and write, creating the file (mode 0600) when it does not exist.
        case readWrite
        /// Read only (SQLite's `mode=ro`); the file must exist. A WAL database still needs its `-shm` file to
        /// exist or to be creatable (sqlite.org/wal.html, "Read-Only Databases").
        case readOnly
        /// Read only, trusting that nobody changes the file (SQLite's `immutable=1`): no locks and no `-wal` or
        /// `-shm` files are used, so it works in a folder nothing can be created in. Content still in a `-wal`
        /// file is not seen, so use it only when there is none.
        case immutable
    }

    /// Opens (creating if needed, with mode 0600) the database at `path` and applies sclm's pragmas.
    ///
    /// - Parameters:
    ///   - path: a file path, or `:memory:` for a private in-memory database.
    ///   - access: read-write (the default), read-only or immutable (see ``Access``).
    ///   - busyTimeout: milliseconds to wait for a lock held by another connection.
    /// - Throws: ``StoreError`` (`.openFailed`) naming the file.
    package init(path: String, access: Access = .readWrite, busyTimeout: Int32 = Database.defaultBusyTimeout) throws {
        let readOnly = access != .readWrite
        if path != ":memory:" && !readOnly { try Database.createFile(path) }
        var handle: OpaquePointer?
        let flags =
            (readOnly ? SQLITE_OPEN_READONLY : SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE)
            | SQLITE_OPEN_NOMUTEX | SQLITE_OPEN_EXRESCODE | (access == .immutable ? SQLITE_OPEN_URI : 0)
        let name = access == .immutable ? Database.immutableURI(path) : path
        let code = sqlite3_open_v2(name, &handle, flags, nil)
        guard code == SQLITE_OK, let handle else {
            let message = handle.map { String(cString: sqlite3_errmsg($0)) } ?? ResultCode(rawValue: code).description
            sqlite3_close_v2(handle)
            throw StoreError(
                code: .openFailed, resultCode: ResultCode(rawValue: code), message: "cannot open: \(message)",
                path: path)
        }
        self.path = path
        self.handle = handle
        sqlite3_extended_result_codes(handle, 1)
        sqlite3_busy_timeout(handle, busyTimeout)
        do {
            try configure(readOnly: readOnly)
        } catch {
            statementCache.removeAll()
            sqlite3_close_v2(handle)
            throw error
        }
    }

    deinit {
        statementCache.removeAll()
        sqlite3_close_v2(handle)
    }

    private func configure(readOnly: Bool) throws {
        if path != ":memory:" && !readOnly {
            // WAL survives for the file once set; readers never block the writer (sqlite.org/wal.html).
            try execute("PRAGMA journal_mode = WAL")
        }
        try execute("PRAGMA synchronous = NORMAL")
        try execute("PRAGMA foreign_keys = ON")
        try execute("PRAGMA temp_store = MEMORY")
        try execute("PRAGMA cache_size = -65536")
    }

    /// `file:PATH?immutable=1`, the path percent-encoded per component (sqlite.org/uri.html).
    private static func immutableURI(_ path: String) -> String {
        let encoded = path.split(separator: "/", omittingEmptySubsequences: false)
            .map { PercentEncoding.escape(String($0)) }.joined(separator: "/")
        return "file:\(encoded)?immutable=1"
    }

    /// Creates the database file with mode 0600 before SQLite opens it; SQLite gives the `-wal` and
    /// `-shm` files the same permissions as the main file.
    private static func createFile(_ path: String) throws {
        let fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o600)
        guard fd >= 0 else {
            throw StoreError(
                code: .openFailed, message: "cannot create: \(String(cString: strerror(errno)))", path: path)
        }
        close(fd)
    }

    // MARK: - Errors

    func error(code: Int32, sql: String?) -> StoreError {
        let extended = sqlite3_extended_errcode(handle)
        let message = String(cString: sqlite3_errmsg(handle))
        let resultCode = ResultCode(rawValue: (extended & 0xFF) == (code & 0xFF) ? extended : code)
        return StoreError(code: .sqlite, resultCode: resultCode, message: message, sql: sql, path: path)
    }

    // MARK: - Statements

    /// Prepares a new statement (not cached).
    ///
    /// - Throws: ``StoreError`` for invalid SQL.
    package func makeStatement(_ sql: String) throws -> Statement {
        try Statement(database: self, sql: sql, persistent: false)
    }

    /// Returns a prepared statement for `sql` from the connection's cache, reset with cleared bindings.
    ///
    /// - Throws: ``StoreError`` for invalid SQL.
    package func cachedStatement(_ sql: String) throws -> Statement {
        if let statement = statementCache[sql] {
            statement.reset()
            return statement
        }
        let statement = try Statement(database: self, sql: sql, persistent: true)
        statementCache[sql] = statement
        return statement
    }

    /// Runs one or more SQL statements without arguments (schema changes, pragmas).
    ///
    /// - Throws: ``StoreError``.
    package func execute(script sql: String) throws {
        var message: UnsafeMutablePointer<CChar>?
        let code = sqlite3_exec(handle, sql, nil, nil, &message)
        if code != SQLITE_OK {
            let text = message.map { String(cString: $0) } ?? ResultCode(rawValue: code).description
            sqlite3_free(message)
            let extended = sqlite3_extended_errcode(handle)
            throw StoreError(
                code: .sqlite, resultCode: ResultCode(rawValue: extended), message: text,
                sql: sql.trimmingCharacters(in: .whitespacesAndNewlines), path: path)
        }
    }

    /// Runs one statement with `arguments` through the statement cache.
    ///
    /// - Throws: ``StoreError``.
    package func execute(_ sql: String, _ arguments: [any DatabaseValueConvertible] = []) throws {
        try cachedStatement(sql).execute(arguments)
    }

    /// All rows of a query.
    ///
    /// - Throws: ``StoreError``.
    package func fetchAll(_ sql: String, _ arguments: [any DatabaseValueConvertible] = []) throws -> [Row] {
        let statement = try cachedStatement(sql)
        try statement.bind(arguments)
        defer { statement.reset() }
        var rows: [Row] = []
        while try statement.step() { rows.append(statement.row()) }
        return rows
    }

    /// The first row of a query, or `nil`.
    ///
    /// - Throws: ``StoreError``.
    package func fetchOne(_ sql: String, _ arguments: [any DatabaseValueConvertible] = []) throws -> Row? {
        let statement = try cachedStatement(sql)
        try statement.bind(arguments)
        defer { statement.reset() }
        return try statement.step() ? statement.row() : nil
    }

    /// The first column of the first row converted to `T`, or `nil` when there is no row or it is `NULL`.
    ///
    /// - Throws: ``StoreError``.
    package func fetchScalar<T: DatabaseValueConvertible>(
        _ sql: String, _ arguments: [any DatabaseValueConvertible] = [], as type: T.Type = T.self
    ) throws -> T? {
        let statement = try cachedStatement(sql)
        try statement.bind(arguments)
        defer { statement.reset() }
        guard try statement.step() else { return nil }
        return T.fromDatabaseValue(statement.value(at: 0))
    }

    /// The count returned by a `SELECT count(*) …` query.
    ///
    /// - Throws: ``StoreError``.
    package func fetchCount(_ sql: String, _ arguments: [any DatabaseValueConvertible] = []) throws -> Int {
        Int(try fetchScalar(sql, arguments, as: Int64.self) ?? 0)
    }

    // MARK: - Connection facts

    /// Rows changed by the last `INSERT`, `UPDATE` or `DELETE`.
    package var changedRowCount: Int { Int(sqlite3_changes64(handle)) }

    /// Whether a transaction is open.
    package var isInsideTransaction: Bool { sqlite3_get_autocommit(handle) == 0 }

    /// The schema version (`PRAGMA user_version`).
    package var userVersion: Int {
        get throws { try fetchScalar("PRAGMA user_version", as: Int.self) ?? 0 }
    }

    /// Makes the statement running on this connection (from any thread) fail with `SQLITE_INTERRUPT`.
    package func interrupt() {
        sqlite3_interrupt(handle)
    }
}

/// A `Database` must stay on one thread at a time; share a ``ContentStore`` instead.
@available(*, unavailable)
extension Database: Sendable {}
