import Foundation
import SCLMCore
import SCLMStore

/// One row waiting to be published: its kind, its columns, and where it sits in its table.
package struct OutboxEntry: Sendable, Equatable {
    /// The row as the store read it.
    let pending: PendingAnalyticsRow

    /// Wraps a row the store returned.
    init(_ pending: PendingAnalyticsRow) {
        self.pending = pending
    }

    /// Which table it comes from.
    package var kind: OutboxKind { OutboxKind(pending.table) }

    /// The row's columns (the whole table row).
    package var row: Row { pending.row }

    /// The SQLite rowid, the paging cursor of a flush.
    var rowid: Int64 { pending.rowid }

    /// The stable id: the StoryIoT entity id (`s-m-id`).
    package var id: String { pending.id }

    /// The session the row belongs to (a session's own id for a session).
    package var sessionId: String { pending.sessionId }

    /// The row's identifying and header columns, decoded.
    package var columns: PendingAnalyticsRow { pending }
}
