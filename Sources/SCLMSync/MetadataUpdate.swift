import Foundation
import SCLMCore
import SCLMStore

/// One fetched presentation: its record, the slides and media files that had to be fetched, the list
/// positions of those that did not, and its package.
struct FetchedPresentation: Sendable {
    var record: PresentationRecord
    var fetchedSlides: [SlideRecord]
    var slidePositions: [Int64: Int64]
    var fetchedMediaFiles: [MediaFileRecord]
    var mediaPositions: [Int64: Int64]
    var package: ContentPackageRecord?
    var isNew: Bool
}

/// Everything a metadata sync stores, applied in one transaction.
struct MetadataUpdate: Sendable {
    let plan: MetadataPlan
    let fetched: [FetchedPresentation]
    /// When the clients were received (ISO-8601 UTC).
    let synchronizedAt: String

    /// Applies the update; call inside ``Database/write(_:)``.
    ///
    /// - Throws: ``StoreError``.
    func apply(to db: Database) throws {
        try db.deleteClients(plan.removedClientIds)
        try db.deletePresentations(plan.removals.map(\.presentationId))
        try db.upsert(plan.clients.map { $0.record(synchronized: synchronizedAt) })
        try db.upsertPresentations(fetched.map(\.record))
        try db.upsert(fetched.flatMap(\.fetchedSlides))
        try db.upsert(fetched.flatMap(\.fetchedMediaFiles))
        try db.upsert(fetched.compactMap(\.package))
        let states = Dictionary(uniqueKeysWithValues: try db.presentationSummaries().map { ($0.presentationId, $0) })
        for presentation in fetched {
            let id = presentation.record.presentationId
            try keepOnly(
                SlideRecord.self, fetched: presentation.fetchedSlides.map(\.slideId),
                positions: presentation.slidePositions, of: id, in: db)
            try keepOnly(
                MediaFileRecord.self, fetched: presentation.fetchedMediaFiles.map(\.mediaFileId),
                positions: presentation.mediaPositions, of: id, in: db)
            if presentation.package == nil {
                try db.deleteContentPackage(ofPresentation: id)
            }
            let state = SyncState.afterMetadata(
                revision: presentation.record.revision, installedRevision: states[id]?.installedRevision,
                skip: presentation.record.skip)
            try db.setSyncState(state, presentationId: id)
        }
        for update in plan.flagUpdates {
            let stub = update.stub
            try db.setListingFlags(
                presentationId: stub.id, skip: stub.skip, lockout: stub.lockout, debugModeEnabled: stub.debug)
            let state = SyncState.afterMetadata(
                revision: stub.revision, installedRevision: states[stub.id]?.installedRevision, skip: stub.skip)
            try db.setSyncState(state, presentationId: stub.id)
        }
    }

    /// Drops rows of the presentation no longer listed and moves the unchanged ones to their list position.
    private func keepOnly<R: UpsertableRecord>(
        _ type: R.Type, fetched: [Int64], positions: [Int64: Int64], of presentationId: Int64, in db: Database
    ) throws {
        try db.deleteRows(of: R.self, ofPresentation: presentationId, keeping: Set(fetched).union(positions.keys))
        try db.setPositions(of: R.self, positions)
    }
}
