/// A presentation's unpacks that never ended: the durable mark of the one in progress and how many times in a
/// row the unpack of one revision was found interrupted (a kill, a crash, a power loss), stored in
/// `presentations.unpackRevision`, `interruptedRevision` and `unpackInterruptions` (schema version 4).
///
/// The holder of the presentation's lock sets ``unpacking`` (durably) before it unpacks and clears it when the
/// unpack ends, whether it succeeded or failed; a clean cancel clears it without counting. A mark that the next
/// holder of the lock finds still set was left by a process that died while unpacking: ``afterInterruption()``
/// counts it. A pure value: the rules are tested with tables of cases.
package struct UnpackAttempts: Sendable, Equatable, Codable {
    /// Interruptions in a row after which a revision is given up (until a new revision or `sclm sync --retry`).
    package static let limit: Int64 = 3

    /// The revision whose unpack began and has not ended, if any: the mark.
    package var unpacking: Int64?
    /// The revision whose unpack was found interrupted ``interruptions`` times in a row, if any.
    package var interruptedRevision: Int64?
    /// How many times in a row the unpack of ``interruptedRevision`` was found interrupted.
    package var interruptions: Int64

    /// Creates attempts; the defaults are those of a presentation never unpacked.
    package init(unpacking: Int64? = nil, interruptedRevision: Int64? = nil, interruptions: Int64 = 0) {
        self.unpacking = unpacking
        self.interruptedRevision = interruptedRevision
        self.interruptions = interruptions
    }

    /// The attempts once a mark found still set is counted: the mark is cleared, and the count goes up when
    /// the same revision was interrupted last time, or restarts at 1 for another revision. Without a mark,
    /// nothing changes.
    package func afterInterruption() -> UnpackAttempts {
        guard let revision = unpacking else { return self }
        let count = interruptedRevision == revision ? interruptions + 1 : 1
        return UnpackAttempts(unpacking: nil, interruptedRevision: revision, interruptions: count)
    }

    /// Whether `revision` has been interrupted ``limit`` times in a row, so that sync no longer tries it.
    package func hasGivenUp(on revision: Int64) -> Bool {
        interruptedRevision == revision && interruptions >= UnpackAttempts.limit
    }

    /// Reads the attempts from a `presentations` row.
    ///
    /// - Throws: ``StoreError`` (`.decoding`) naming a missing or mistyped column.
    init(columns: ColumnReader) throws {
        self.init(
            unpacking: try columns.optionalInt64("unpackRevision"),
            interruptedRevision: try columns.optionalInt64("interruptedRevision"),
            interruptions: try columns.int64("unpackInterruptions"))
    }
}
