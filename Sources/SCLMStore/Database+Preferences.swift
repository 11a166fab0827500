import Foundation
import SCLMCore

/// Scoped key/value settings kept in the `preferences` table (OSAM state, sync bookkeeping, …).
extension Database {
    /// The table preferences are kept in.
    static let preferencesTable = "preferences"

    /// The value stored under `scope`/`key`, or `nil`.
    ///
    /// - Throws: ``StoreError``.
    package func preference(scope: String, key: String) throws -> String? {
        try fetchText(
            "SELECT value FROM preferences WHERE scope = ? AND key = ?", [scope, key], column: "value",
            table: Self.preferencesTable)
    }

    /// Stores `value` under `scope`/`key` (`nil` removes it).
    ///
    /// - Throws: ``StoreError``.
    package func setPreference(scope: String, key: String, value: String?, now: Date = Date()) throws {
        if let value {
            try execute(
                """
                INSERT INTO preferences(scope, key, value, updated) VALUES (?, ?, ?, ?)
                ON CONFLICT(scope, key) DO UPDATE SET value = excluded.value, updated = excluded.updated
                """, [scope, key, value, Timestamp.string(from: now)])
        } else {
            try execute("DELETE FROM preferences WHERE scope = ? AND key = ?", [scope, key])
        }
    }

    /// Every key/value of `scope`.
    ///
    /// - Throws: ``StoreError``.
    package func preferences(scope: String) throws -> [String: String] {
        var result: [String: String] = [:]
        for row in try fetchAll("SELECT key, value FROM preferences WHERE scope = ?", [scope]) {
            let columns = ColumnReader(row, table: Self.preferencesTable)
            result[try columns.text("key")] = try columns.text("value")
        }
        return result
    }
}

/// Well-known preference scopes and keys of sclm itself.
package enum PreferenceKey {
    /// The scope of sclm's own bookkeeping.
    package static let sclmScope = "sclm"
    /// When the last `sclm sync` finished (ISO-8601 UTC).
    package static let lastSyncAt = "lastSyncAt"
    /// The result of the last `sclm sync` (`ok`, `failed`, `cancelled`).
    package static let lastSyncResult = "lastSyncResult"
    /// When the last `sclm sync` started (ISO-8601 UTC).
    package static let lastSyncStartedAt = "lastSyncStartedAt"
    /// The presentations the last `sclm sync` could not sync (comma-separated ids).
    package static let lastSyncFailedPresentations = "lastSyncFailedPresentations"
    /// Bytes the last `sclm sync` downloaded.
    package static let lastSyncDownloadedBytes = "lastSyncDownloadedBytes"
    /// "1" when the last sync fetched blobs from the origin because the site cache failed, else "0".
    package static let lastSyncBlobProxyFallback = "lastSyncBlobProxyFallback"
}
