import CSQLite

/// A SQLite result code, primary or extended (`SQLITE_CONSTRAINT_UNIQUE`), as a named value.
package struct ResultCode: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    package let rawValue: Int32

    package init(rawValue: Int32) { self.rawValue = rawValue }

    /// The primary code (the low byte of an extended code).
    package var primary: ResultCode { ResultCode(rawValue: rawValue & 0xFF) }

    package static let ok = ResultCode(rawValue: SQLITE_OK)
    package static let error = ResultCode(rawValue: SQLITE_ERROR)
    package static let `internal` = ResultCode(rawValue: SQLITE_INTERNAL)
    package static let permission = ResultCode(rawValue: SQLITE_PERM)
    package static let abort = ResultCode(rawValue: SQLITE_ABORT)
    package static let busy = ResultCode(rawValue: SQLITE_BUSY)
    package static let locked = ResultCode(rawValue: SQLITE_LOCKED)
    package static let noMemory = ResultCode(rawValue: SQLITE_NOMEM)
    package static let readOnly = ResultCode(rawValue: SQLITE_READONLY)
    package static let interrupt = ResultCode(rawValue: SQLITE_INTERRUPT)
    package static let ioError = ResultCode(rawValue: SQLITE_IOERR)
    package static let corrupt = ResultCode(rawValue: SQLITE_CORRUPT)
    package static let full = ResultCode(rawValue: SQLITE_FULL)
    package static let cantOpen = ResultCode(rawValue: SQLITE_CANTOPEN)
    package static let constraint = ResultCode(rawValue: SQLITE_CONSTRAINT)
    package static let mismatch = ResultCode(rawValue: SQLITE_MISMATCH)
    package static let misuse = ResultCode(rawValue: SQLITE_MISUSE)
    package static let notADatabase = ResultCode(rawValue: SQLITE_NOTADB)
    package static let row = ResultCode(rawValue: SQLITE_ROW)
    package static let done = ResultCode(rawValue: SQLITE_DONE)
    package static let constraintUnique = ResultCode(rawValue: SQLITE_CONSTRAINT | (8 << 8))
    package static let constraintForeignKey = ResultCode(rawValue: SQLITE_CONSTRAINT | (3 << 8))
    package static let constraintPrimaryKey = ResultCode(rawValue: SQLITE_CONSTRAINT | (6 << 8))
    package static let constraintNotNull = ResultCode(rawValue: SQLITE_CONSTRAINT | (5 << 8))

    /// SQLite's English text for the code, e.g. "database is locked".
    package var description: String {
        String(cString: sqlite3_errstr(rawValue))
    }
}
