import SCLMCore

/// A failure of the SQLite store, with the SQLite code and the SQL that failed.
///
/// The SQL text is shown (it holds `?` placeholders, never bound values), so secrets bound as
/// arguments never reach a message.
package struct StoreError: CategorizedError, Equatable {
    /// What kind of store failure this is. New kinds may be added; do not switch exhaustively.
    package struct Code: Hashable, Sendable {
        private enum Base: Hashable, Sendable { case sqlite, openFailed, schemaTooNew, migrationFailed, decoding }
        private let base: Base

        /// SQLite returned an error code (see ``StoreError/resultCode``).
        package static let sqlite = Code(base: .sqlite)
        /// The database file could not be opened or created.
        package static let openFailed = Code(base: .openFailed)
        /// The database was written by a newer sclm (its `user_version` is above this binary's).
        package static let schemaTooNew = Code(base: .schemaTooNew)
        /// A migration failed and was rolled back.
        package static let migrationFailed = Code(base: .migrationFailed)
        /// A column did not hold the type the caller asked for.
        package static let decoding = Code(base: .decoding)
    }

    /// The kind of failure.
    package let code: Code
    /// SQLite's extended result code, when SQLite reported the error.
    package let resultCode: ResultCode?
    /// What failed, in a sentence.
    package let message: String
    /// The SQL being executed, if any (placeholders only).
    package let sql: String?
    /// The database file, if known.
    package let path: String?

    /// Creates a store error.
    package init(code: Code, resultCode: ResultCode? = nil, message: String, sql: String? = nil, path: String? = nil) {
        self.code = code
        self.resultCode = resultCode
        self.message = message
        self.sql = sql
        self.path = path
    }

    package var category: ErrorCategory {
        guard let primary = resultCode?.primary else {
            return code == .decoding ? .internal : .storage
        }
        switch primary {
        case .busy, .locked: return .temporary
        case .interrupt: return .cancelled
        case .constraint, .mismatch, .misuse, .error: return code == .sqlite ? .internal : .storage
        default: return .storage
        }
    }

    /// What to do about a damaged database file, and what is lost by replacing it: the rows only it holds
    /// (unsent analytics, the login) are not on any server, and a new database needs a login before a sync.
    static let damagedFileAdvice =
        "; the file is damaged: move it aside (keep the copy: it holds the analytics sessions and events not yet "
        + "sent and the login, which a new database will not have), then run `sclm login` and `sclm sync` to "
        + "rebuild the catalog and content"

    package var description: String {
        var text = "database error: \(message)"
        if let resultCode { text += " (SQLite code \(resultCode.rawValue))" }
        if let sql { text += " while running `\(sql.count > 160 ? sql.prefix(157) + "..." : sql)`" }
        if let path { text += " in \(path)" }
        switch resultCode?.primary {
        case .full?: text += "; free some disk space and retry"
        case .busy?, .locked?: text += "; another sclm process holds the database, retry when it finishes"
        case .readOnly?, .permission?, .cantOpen?: text += "; check the permissions of the sclm home"
        case .corrupt?, .notADatabase?: text += Self.damagedFileAdvice
        default: break
        }
        return text
    }
}
