import SCLMCore

/// The content phase's writes to `presentations` and `media_files` (the install record): each is one statement
/// or one transaction, so a crash leaves either the old record or the new one.
extension Database {
    /// Records that `revision` of a presentation is installed, with its media files and its package
    /// findings, after the new folder was swapped in: `installedRevision`, `installedAt`, no `syncError`,
    /// and `syncState` 5 (or 3 when the server's revision moved on while it was installing); `findings`
    /// replace those of the previous revision, and so does `manifest` (the installed files; `nil` leaves the
    /// revision without one). Call inside ``write(_:)``.
    ///
    /// - Returns: whether the presentation is still stored (a concurrent sync may have removed it).
    /// - Throws: ``StoreError``.
    package func recordInstall(
        presentationId: Int64, revision: Int64, installedAt: String, mediaFileIds: [Int64],
        findings: [PackageFindingRecord] = [], manifest: [ManifestEntry]? = nil
    ) throws -> Bool {
        try execute(
            """
            UPDATE presentations SET installedRevision = ?, installedAt = ?, syncError = NULL,
                syncState = CASE WHEN revision = ? THEN \(SyncState.installed.rawValue)
                                 ELSE \(SyncState.updateAvailable.rawValue) END
            WHERE presentationId = ?
            """, [revision, installedAt, revision, presentationId])
        guard changedRowCount == 1 else { return false }
        for id in mediaFileIds {
            try execute(
                "UPDATE media_files SET installedRevision = revision WHERE mediaFileId = ? AND presentationId = ?",
                [id, presentationId])
        }
        try replacePackageFindings(findings, presentationId: presentationId, revision: revision)
        if let manifest {
            try replaceInstalledFiles(manifest, presentationId: presentationId, revision: revision)
        } else {
            try forgetInstalledFiles(presentationId: presentationId)
        }
        return true
    }

    /// Marks a presentation as being downloaded (`syncState` 4) by the holder of its lock.
    ///
    /// - Throws: ``StoreError``.
    package func markDownloading(presentationId: Int64) throws {
        try setSyncState(.downloading, presentationId: presentationId)
    }

    /// Sets the mark of an unpack in progress (``UnpackAttempts/unpacking``) before the holder of the
    /// presentation's lock unpacks `revision`; write it with ``ContentStore/writeDurably(_:)``, so that it
    /// outlives a power loss.
    ///
    /// - Throws: ``StoreError``.
    package func markUnpacking(presentationId: Int64, revision: Int64) throws {
        try execute(
            "UPDATE presentations SET unpackRevision = ? WHERE presentationId = ?", [revision, presentationId])
    }

    /// Clears the mark of an unpack in progress. With `ended` (the unpack succeeded or failed on its own) the
    /// interruptions in a row are forgotten too; without (a clean cancel) they are kept, neither counted nor
    /// reset.
    ///
    /// - Throws: ``StoreError``.
    package func clearUnpackMark(presentationId: Int64, ended: Bool) throws {
        try execute(
            ended
                ? """
                UPDATE presentations SET unpackRevision = NULL, interruptedRevision = NULL, unpackInterruptions = 0
                WHERE presentationId = ?
                """
                : "UPDATE presentations SET unpackRevision = NULL WHERE presentationId = ?", [presentationId])
    }

    /// Counts the mark of an unpack that never ended (``UnpackAttempts/afterInterruption()``); the caller
    /// holds the presentation's lock, so no live process set it.
    ///
    /// - Returns: the attempts as now stored, or `nil` when the presentation is no longer stored.
    /// - Throws: ``StoreError``.
    package func countInterruptedUnpack(presentationId: Int64) throws -> UnpackAttempts? {
        guard let attempts = try presentationSummary(id: presentationId)?.unpack.afterInterruption() else {
            return nil
        }
        try execute(
            """
            UPDATE presentations SET unpackRevision = ?, interruptedRevision = ?, unpackInterruptions = ?
            WHERE presentationId = ?
            """, [attempts.unpacking, attempts.interruptedRevision, attempts.interruptions, presentationId])
        return attempts
    }

    /// Forgets the interruptions in a row of these presentations (`sclm sync --retry`), so a revision given up
    /// is tried again; a mark still set stays, to be counted by the next holder of the lock.
    ///
    /// - Throws: ``StoreError``.
    package func forgetUnpackInterruptions(presentationIds: some Sequence<Int64>) throws {
        for id in presentationIds {
            try execute(
                "UPDATE presentations SET interruptedRevision = NULL, unpackInterruptions = 0 WHERE presentationId = ?",
                [id])
        }
    }

    /// Puts a presentation's `syncState` back to what its revisions say (after a failure, a cancellation,
    /// or a crash that left it "downloading") and stores `error` as its `syncError` (`nil` clears it).
    ///
    /// - Throws: ``StoreError``.
    package func settleSyncState(presentationId: Int64, error: String?) throws {
        guard let summary = try presentationSummary(id: presentationId) else { return }
        let state = SyncState.afterMetadata(
            revision: summary.revision, installedRevision: summary.installedRevision, skip: summary.skip)
        try execute(
            "UPDATE presentations SET syncState = ?, syncError = ? WHERE presentationId = ?",
            [state.rawValue, error, presentationId])
    }

    /// Forgets a presentation's installed content (`sclm content delete`): no installed revision, media
    /// files not installed, no package findings, `syncState` 1 (0 for a `skip` presentation). Call inside
    /// ``write(_:)``.
    ///
    /// - Returns: whether the presentation is stored.
    /// - Throws: ``StoreError``.
    package func forgetInstall(presentationId: Int64) throws -> Bool {
        try execute(
            "UPDATE presentations SET installedRevision = NULL, installedAt = NULL, syncError = NULL WHERE presentationId = ?",
            [presentationId])
        guard changedRowCount == 1 else { return false }
        try execute("UPDATE media_files SET installedRevision = NULL WHERE presentationId = ?", [presentationId])
        try forgetPackageFindings(presentationId: presentationId)
        try forgetInstalledFiles(presentationId: presentationId)
        try settleSyncState(presentationId: presentationId, error: nil)
        return true
    }

    /// The presentation and revision of every stored media file, by media file id (for cache cleanup).
    ///
    /// - Throws: ``StoreError``.
    package func mediaFileOwners() throws -> [Int64: (presentationId: Int64, revision: Int64)] {
        var owners: [Int64: (presentationId: Int64, revision: Int64)] = [:]
        for row in try fetchAll("SELECT mediaFileId, presentationId, revision FROM media_files") {
            let columns = ColumnReader(row, table: MediaFileRecord.table)
            owners[try columns.int64("mediaFileId")] = (
                try columns.int64("presentationId"), try columns.int64("revision")
            )
        }
        return owners
    }
}
