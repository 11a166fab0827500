import Foundation

/// A value stored in or read from a SQLite column.
package enum DatabaseValue: Sendable, Hashable {
    case null
    case integer(Int64)
    case real(Double)
    case text(String)
    case blob(Data)

    /// Whether this is SQL `NULL`.
    package var isNull: Bool { self == .null }
}

/// A Swift type that can be bound as a statement argument and read back from a column.
package protocol DatabaseValueConvertible: Sendable {
    /// The value to bind.
    var databaseValue: DatabaseValue { get }
    /// Converts a column value, or returns `nil` when the value has another type.
    static func fromDatabaseValue(_ value: DatabaseValue) -> Self?
}

extension DatabaseValue: DatabaseValueConvertible {
    package var databaseValue: DatabaseValue { self }
    package static func fromDatabaseValue(_ value: DatabaseValue) -> DatabaseValue? { value }
}

extension Int64: DatabaseValueConvertible {
    package var databaseValue: DatabaseValue { .integer(self) }
    package static func fromDatabaseValue(_ value: DatabaseValue) -> Int64? {
        switch value {
        case .integer(let number): number
        case .real(let number) where number.rounded() == number: Int64(exactly: number)
        default: nil
        }
    }
}

extension Int: DatabaseValueConvertible {
    package var databaseValue: DatabaseValue { .integer(Int64(self)) }
    package static func fromDatabaseValue(_ value: DatabaseValue) -> Int? {
        Int64.fromDatabaseValue(value).map(Int.init)
    }
}

extension Int32: DatabaseValueConvertible {
    package var databaseValue: DatabaseValue { .integer(Int64(self)) }
    package static func fromDatabaseValue(_ value: DatabaseValue) -> Int32? {
        Int64.fromDatabaseValue(value).flatMap { Int32(exactly: $0) }
    }
}

extension Double: DatabaseValueConvertible {
    package var databaseValue: DatabaseValue { .real(self) }
    package static func fromDatabaseValue(_ value: DatabaseValue) -> Double? {
        switch value {
        case .integer(let number): Double(number)
        case .real(let number): number
        default: nil
        }
    }
}

extension Bool: DatabaseValueConvertible {
    package var databaseValue: DatabaseValue { .integer(self ? 1 : 0) }
    package static func fromDatabaseValue(_ value: DatabaseValue) -> Bool? {
        Int64.fromDatabaseValue(value).map { $0 != 0 }
    }
}

extension String: DatabaseValueConvertible {
    package var databaseValue: DatabaseValue { .text(self) }
    package static func fromDatabaseValue(_ value: DatabaseValue) -> String? {
        switch value {
        case .text(let text): text
        case .integer(let number): String(number)
        case .real(let number): String(number)
        case .blob(let data): String(data: data, encoding: .utf8)
        case .null: nil
        }
    }
}

extension Data: DatabaseValueConvertible {
    package var databaseValue: DatabaseValue { .blob(self) }
    package static func fromDatabaseValue(_ value: DatabaseValue) -> Data? {
        switch value {
        case .blob(let data): data
        case .text(let text): Data(text.utf8)
        default: nil
        }
    }
}

extension Optional: DatabaseValueConvertible where Wrapped: DatabaseValueConvertible {
    package var databaseValue: DatabaseValue { self?.databaseValue ?? .null }
    package static func fromDatabaseValue(_ value: DatabaseValue) -> Wrapped?? {
        value.isNull ? .some(nil) : Wrapped.fromDatabaseValue(value).map { .some($0) }
    }
}
