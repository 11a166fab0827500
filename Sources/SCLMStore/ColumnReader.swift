/// Strict, typed reads of one row of a known table, the one place rows become record fields.
///
/// A missing column, a `NULL` where a value is required, or a value of another storage class is a
/// ``StoreError`` (`.decoding`) naming the table and the column, never a default. The message never shows the
/// value (a row may hold a token); an unknown enumeration value names the number only.
///
/// ```swift
/// let columns = ColumnReader(row, table: "clients")
/// let record = ClientRecord(clientId: try columns.int64("clientId"), name: try columns.text("name"))
/// ```
package struct ColumnReader: Sendable {
    /// The row being read.
    package let row: Row
    /// The table (or query) the row comes from, for error messages.
    package let table: String

    /// Creates a reader of `row`, which comes from `table`.
    package init(_ row: Row, table: String) {
        self.row = row
        self.table = table
    }

    // MARK: - Required values

    /// The integer in `column`.
    ///
    /// - Throws: ``StoreError`` (`.decoding`) when the column is missing, `NULL` or not an integer.
    package func int64(_ column: String) throws -> Int64 {
        try required(column, try optionalInt64(column), expected: "an integer")
    }

    /// The text in `column`.
    ///
    /// - Throws: ``StoreError`` (`.decoding`) when the column is missing, `NULL` or not text.
    package func text(_ column: String) throws -> String {
        try required(column, try optionalText(column), expected: "text")
    }

    /// The 0/1 flag in `column` (any non-zero integer is `true`).
    ///
    /// - Throws: ``StoreError`` (`.decoding`) when the column is missing, `NULL` or not an integer.
    package func bool(_ column: String) throws -> Bool {
        try int64(column) != 0
    }

    /// The number in `column` (an integer is widened).
    ///
    /// - Throws: ``StoreError`` (`.decoding`) when the column is missing, `NULL` or not a number.
    package func double(_ column: String) throws -> Double {
        try required(column, try optionalDouble(column), expected: "a number")
    }

    /// The enumeration case whose raw value is the integer in `column`.
    ///
    /// - Throws: ``StoreError`` (`.decoding`) when the column is missing, `NULL`, not an integer or not a
    ///   raw value of `T`.
    package func value<T: RawRepresentable>(_ column: String, as type: T.Type = T.self) throws -> T
    where T.RawValue == Int64 {
        let raw = try int64(column)
        guard let value = T(rawValue: raw) else { throw failure(column, "holds \(raw), which is not a \(T.self)") }
        return value
    }

    /// The enumeration case whose raw value is the text in `column`.
    ///
    /// - Throws: ``StoreError`` (`.decoding`) when the column is missing, `NULL`, not text or not a raw value
    ///   of `T`.
    package func value<T: RawRepresentable>(_ column: String, as type: T.Type = T.self) throws -> T
    where T.RawValue == String {
        guard let value = T(rawValue: try text(column)) else { throw failure(column, "is not a \(T.self)") }
        return value
    }

    // MARK: - Values that may be NULL

    /// The integer in `column`, or `nil` for `NULL`.
    ///
    /// - Throws: ``StoreError`` (`.decoding`) when the column is missing or holds another type.
    package func optionalInt64(_ column: String) throws -> Int64? {
        switch try value(of: column) {
        case .null: nil
        case .integer(let number): number
        default: throw failure(column, "does not hold an integer")
        }
    }

    /// The text in `column`, or `nil` for `NULL`.
    ///
    /// - Throws: ``StoreError`` (`.decoding`) when the column is missing or holds another type.
    package func optionalText(_ column: String) throws -> String? {
        switch try value(of: column) {
        case .null: nil
        case .text(let text): text
        default: throw failure(column, "does not hold text")
        }
    }

    /// The number in `column`, or `nil` for `NULL`.
    ///
    /// - Throws: ``StoreError`` (`.decoding`) when the column is missing or holds another type.
    package func optionalDouble(_ column: String) throws -> Double? {
        switch try value(of: column) {
        case .null: nil
        case .real(let number): number
        case .integer(let number): Double(number)
        default: throw failure(column, "does not hold a number")
        }
    }

    // MARK: - Errors

    private func value(of column: String) throws -> DatabaseValue {
        guard let value = row.value(named: column) else { throw failure(column, "is missing from the row") }
        return value
    }

    private func required<T>(_ column: String, _ value: T?, expected: String) throws -> T {
        guard let value else { throw failure(column, "is NULL, expected \(expected)") }
        return value
    }

    private func failure(_ column: String, _ problem: String) -> StoreError {
        StoreError(code: .decoding, message: "column \(table).\(column) \(problem)")
    }
}

extension Database {
    /// The text in `column` of the first row of a query on `table`, or `nil` when there is no row.
    ///
    /// - Throws: ``StoreError``, (`.decoding`) when the column is missing, `NULL` or not text.
    func fetchText(
        _ sql: String, _ arguments: [any DatabaseValueConvertible], column: String, table: String
    ) throws -> String? {
        try fetchOne(sql, arguments).map { try ColumnReader($0, table: table).text(column) }
    }
}
