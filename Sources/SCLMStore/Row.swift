import Foundation

/// A snapshot of one result row: column names and values, readable by index or by name.
package struct Row: Sendable, Hashable, CustomStringConvertible {
    /// The columns in result order.
    package let columns: [(name: String, value: DatabaseValue)]

    /// Creates a row from named values.
    package init(columns: [(String, DatabaseValue)]) {
        self.columns = columns.map { (name: $0.0, value: $0.1) }
    }

    /// The value of the column at `index`.
    package subscript(index: Int) -> DatabaseValue { columns[index].value }

    /// The value of the first column named `name` (case-insensitive), or `.null` if absent.
    package subscript(name: String) -> DatabaseValue {
        value(named: name) ?? .null
    }

    /// The value of the first column named `name` (an exact match first, then case-insensitive), or `nil`
    /// when the row has no such column.
    package func value(named name: String) -> DatabaseValue? {
        columns.first { $0.name == name }?.value
            ?? columns.first { $0.name.caseInsensitiveCompare(name) == .orderedSame }?.value
    }

    /// The column named `name` converted to `T`.
    ///
    /// - Throws: ``StoreError`` (`.decoding`) when the value cannot be converted.
    package func get<T: DatabaseValueConvertible>(_ name: String, as type: T.Type = T.self) throws -> T {
        let value = self[name]
        guard let converted = T.fromDatabaseValue(value) else {
            throw StoreError(code: .decoding, message: "column \(name) holds \(value), not \(T.self)")
        }
        return converted
    }

    // The lenient readers below suit tests and ad-hoc reads; records decode through ``ColumnReader``.

    /// The column named `name` as an integer, or `nil` for `NULL` or a non-number.
    package func int(_ name: String) -> Int64? { Int64.fromDatabaseValue(self[name]) }
    /// The column named `name` as text, or `nil` for `NULL`.
    package func string(_ name: String) -> String? { String.fromDatabaseValue(self[name]) }
    /// The column named `name` as a double, or `nil`.
    package func double(_ name: String) -> Double? { Double.fromDatabaseValue(self[name]) }
    /// The column named `name` as a boolean (non-zero is true), or `nil`.
    package func bool(_ name: String) -> Bool? { Bool.fromDatabaseValue(self[name]) }

    package var description: String {
        "[" + columns.map { "\($0.name): \($0.value)" }.joined(separator: ", ") + "]"
    }

    package static func == (lhs: Row, rhs: Row) -> Bool {
        lhs.columns.elementsEqual(rhs.columns) { $0.name == $1.name && $0.value == $1.value }
    }

    package func hash(into hasher: inout Hasher) {
        for column in columns {
            hasher.combine(column.name)
            hasher.combine(column.value)
        }
    }
}
