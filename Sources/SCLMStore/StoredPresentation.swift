/// One stored presentation as the bridge opens it: its server fields and its local state, decoded from
/// one `presentations` row.
package struct StoredPresentation: Sendable, Equatable {
    /// The server-side fields.
    package var record: PresentationRecord
    /// The revision, sync state and installed revision.
    package var summary: PresentationSummary

    /// Reads both halves from one `presentations` row.
    ///
    /// - Throws: ``StoreError`` (`.decoding`) naming a missing or mistyped column.
    init(row: Row) throws {
        record = try PresentationRecord(row: row)
        summary = try PresentationSummary(row: row)
    }
}
