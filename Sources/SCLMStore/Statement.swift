import CSQLite
import Foundation

/// A prepared SQL statement owned by one ``Database``.
///
/// Bind arguments with ``bind(_:)`` or ``bind(_:at:)``, then ``execute()`` or iterate rows with ``step()``
/// and the column readers; ``reset()`` (which ``execute()`` does when it finishes) clears the bindings.
/// Cached statements (``Database/cachedStatement(_:)``) are reset before they are handed out again.
/// Like its database, a statement is confined to one thread at a time.
package final class Statement {
    /// The SQL text (placeholders only).
    package let sql: String
    let handle: OpaquePointer
    private unowned let database: Database
    // Bound text lives here until the bindings are cleared; SQLite reads it in place (see `bindText`).
    private var arena = UnsafeMutableRawBufferPointer.allocate(byteCount: 4096, alignment: 1)
    private var arenaUsed = 0
    private var arenaWanted = 0

    init(database: Database, sql: String, persistent: Bool) throws {
        var handle: OpaquePointer?
        let flags = persistent ? UInt32(SQLITE_PREPARE_PERSISTENT) : 0
        let code = sqlite3_prepare_v3(database.handle, sql, -1, flags, &handle, nil)
        guard code == SQLITE_OK, let handle else {
            throw database.error(code: code, sql: sql)
        }
        self.sql = sql
        self.handle = handle
        self.database = database
    }

    deinit {
        sqlite3_finalize(handle)
        arena.deallocate()
    }

    /// The number of `?` parameters.
    package var parameterCount: Int { Int(sqlite3_bind_parameter_count(handle)) }

    /// The number of result columns.
    package var columnCount: Int { Int(sqlite3_column_count(handle)) }

    /// The name of result column `index`.
    package func columnName(_ index: Int) -> String {
        String(cString: sqlite3_column_name(handle, Int32(index)))
    }

    // MARK: - Binding

    /// Resets the statement so it can run again and clears its bindings.
    package func reset() {
        sqlite3_reset(handle)
        clearBindings()
    }

    /// Binds `arguments` to parameters 1…n.
    ///
    /// - Throws: ``StoreError`` when the count does not match or a bind fails.
    package func bind(_ arguments: [any DatabaseValueConvertible]) throws {
        guard arguments.count == parameterCount else {
            throw StoreError(
                code: .sqlite, resultCode: .misuse,
                message: "expected \(parameterCount) arguments, got \(arguments.count)", sql: sql)
        }
        for (offset, argument) in arguments.enumerated() {
            try bind(argument.databaseValue, at: offset + 1)
        }
    }

    /// Binds `value` to the 1-based parameter `index`.
    ///
    /// - Throws: ``StoreError``.
    package func bind(_ value: DatabaseValue, at index: Int) throws {
        let position = Int32(index)
        let code: Int32
        switch value {
        case .null: code = sqlite3_bind_null(handle, position)
        case .integer(let number): code = sqlite3_bind_int64(handle, position, number)
        case .real(let number): code = sqlite3_bind_double(handle, position, number)
        case .text(let text): code = bindText(text, at: position)
        case .blob(let data):
            code = data.withUnsafeBytes { buffer in
                sqlite3_bind_blob64(
                    handle, position, buffer.baseAddress ?? UnsafeRawPointer(bitPattern: 1), UInt64(buffer.count),
                    sclm_sqlite3_transient())
            }
        }
        try check(code)
    }

    /// Binds an integer without boxing (the fast path for bulk upserts).
    ///
    /// - Throws: ``StoreError``.
    package func bind(_ value: Int64, at index: Int) throws {
        try check(sqlite3_bind_int64(handle, Int32(index), value))
    }

    /// Binds text without boxing (`nil` binds `NULL`).
    ///
    /// - Throws: ``StoreError``.
    package func bind(_ value: String?, at index: Int) throws {
        guard let value else { return try check(sqlite3_bind_null(handle, Int32(index))) }
        try check(bindText(value, at: Int32(index)))
    }

    /// Binds text by copying its UTF-8 into the statement's arena and letting SQLite read it in place
    /// (`SQLITE_STATIC`), which saves SQLite a malloc and a copy per value. Text that does not fit is
    /// bound with `SQLITE_TRANSIENT`, and the arena grows for the next execution.
    private func bindText(_ text: String, at position: Int32) -> Int32 {
        var text = text
        return text.withUTF8 { buffer in
            let count = buffer.count
            if arenaUsed + count <= arena.count, let base = arena.baseAddress {
                let target = base + arenaUsed
                if count > 0, let source = buffer.baseAddress { target.copyMemory(from: source, byteCount: count) }
                arenaUsed += count
                return sqlite3_bind_text64(
                    handle, position, target.assumingMemoryBound(to: CChar.self), UInt64(count),
                    sclm_sqlite3_static(), UInt8(SQLITE_UTF8))
            }
            arenaWanted = max(arenaWanted, (arenaUsed + count) * 2)
            return sqlite3_bind_text64(
                handle, position,
                UnsafeRawPointer(buffer.baseAddress ?? UnsafePointer(bitPattern: 1))?
                    .assumingMemoryBound(to: CChar.self), UInt64(count), sclm_sqlite3_transient(),
                UInt8(SQLITE_UTF8))
        }
    }

    /// Forgets every binding and recycles the arena (grown if the last execution overflowed it).
    private func clearBindings() {
        sqlite3_clear_bindings(handle)
        arenaUsed = 0
        if arenaWanted > arena.count {
            arena.deallocate()
            arena = .allocate(byteCount: arenaWanted, alignment: 1)
        }
    }

    private func check(_ code: Int32) throws {
        if code != SQLITE_OK { throw database.error(code: code, sql: sql) }
    }

    // MARK: - Stepping

    /// Advances to the next row; returns `false` when the statement is done.
    ///
    /// - Throws: ``StoreError`` (including `SQLITE_BUSY` after the busy timeout, and `SQLITE_INTERRUPT`).
    @discardableResult
    package func step() throws -> Bool {
        switch sqlite3_step(handle) {
        case SQLITE_ROW: return true
        case SQLITE_DONE: return false
        case let code:
            let error = database.error(code: code, sql: sql)
            sqlite3_reset(handle)
            throw error
        }
    }

    /// Runs the statement to completion with its current bindings, then resets it and clears the bindings.
    ///
    /// - Throws: ``StoreError``.
    package func execute() throws {
        defer { reset() }
        while try step() {}
    }

    /// Binds `arguments`, runs the statement to completion and resets it.
    ///
    /// - Throws: ``StoreError``.
    package func execute(_ arguments: [any DatabaseValueConvertible]) throws {
        reset()
        try bind(arguments)
        try execute()
    }

    // MARK: - Columns of the current row

    /// The value of column `index` of the current row.
    package func value(at index: Int) -> DatabaseValue {
        let column = Int32(index)
        switch sqlite3_column_type(handle, column) {
        case SQLITE_INTEGER: return .integer(sqlite3_column_int64(handle, column))
        case SQLITE_FLOAT: return .real(sqlite3_column_double(handle, column))
        case SQLITE_TEXT: return .text(text(at: index) ?? "")
        case SQLITE_BLOB:
            let count = Int(sqlite3_column_bytes(handle, column))
            guard let bytes = sqlite3_column_blob(handle, column), count > 0 else { return .blob(Data()) }
            return .blob(Data(bytes: bytes, count: count))
        default: return .null
        }
    }

    /// Column `index` as an integer (0 for `NULL`).
    package func int64(at index: Int) -> Int64 {
        sqlite3_column_int64(handle, Int32(index))
    }

    /// Column `index` as text, or `nil` for `NULL`.
    package func text(at index: Int) -> String? {
        let column = Int32(index)
        guard let bytes = sqlite3_column_text(handle, column) else { return nil }
        let count = Int(sqlite3_column_bytes(handle, column))
        return String(decoding: UnsafeBufferPointer(start: bytes, count: count), as: UTF8.self)
    }

    /// The current row as a ``Row`` snapshot.
    package func row() -> Row {
        Row(columns: (0..<columnCount).map { (columnName($0), value(at: $0)) })
    }
}
