import Foundation
import SCLMCore
import SCLMStore

/// One row waiting to be published: its kind, its columns, and where it sits in its table.
public struct OutboxEntry: Sendable, Equatable {
    /// Which table it comes from.
    public let kind: OutboxKind
    /// The row's columns (the whole table row).
    public let row: Row
    /// The SQLite rowid, the paging cursor of a flush.
    let rowid: Int64

    /// Creates an entry from a table row.
    init(kind: OutboxKind, row: Row, rowid: Int64) {
        self.kind = kind
        self.row = row
        self.rowid = rowid
    }

    /// The stable id: the StoryIoT entity id (`s-m-id`).
    public var id: String { row.string(kind.idColumn) ?? "" }

    /// The session the row belongs to (a session's own id for a session).
    public var sessionId: String { row.string("sessionId") ?? "" }

    /// The values of ``OutboxKind/versionColumns`` when the row was read.
    var version: [DatabaseValue] { kind.versionColumns.map { row[$0] } }
}
