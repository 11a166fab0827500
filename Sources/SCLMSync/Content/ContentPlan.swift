import SCLMStore

/// Which presentations the content phase of a sync works on, decided from the stored catalog alone
/// (a pure function, tested with tables of cases).
///
/// A presentation of a selected client (narrowed further by `--presentation`) needs content when no
/// revision is installed or the installed one is not the server's; one the server marks `skip` is never
/// downloaded and is reported as skipped instead.
///
/// A presentation whose unpack an earlier run left unfinished (its mark still set, ``UnpackAttempts``) may hold
/// a package that kills sclm: it is installed after all the others, so it cannot starve them. One whose
/// revision was interrupted ``UnpackAttempts/limit`` times in a row is given up, until the server publishes a
/// new revision or `retry` (`sclm sync --retry`) asks for it again.
package struct ContentPlan: Sendable, Equatable {
    /// Presentations to download and install first, in listing order.
    package var downloads: [PresentationSummary]
    /// Presentations left mid-unpack by an earlier run (and, with `retry`, those given up), installed once
    /// every one of ``downloads`` is done.
    package var interrupted: [PresentationSummary]
    /// Presentations whose revision is given up (not worked on; reported as failed).
    package var givenUp: [PresentationSummary]
    /// Presentations given up that `retry` asks for again: their interruptions are forgotten first.
    package var retried: [Int64]
    /// Selected presentations the server marks `skip` (never downloaded).
    package var skipped: [PresentationSummary]
    /// Selected presentations already installed at the server's revision.
    package var upToDate: [Int64]

    /// Plans the content phase.
    ///
    /// - Parameters:
    ///   - stored: every stored presentation (after the metadata phase).
    ///   - clientIds: the synced clients.
    ///   - presentationIds: the `--presentation` values; empty means every presentation of those clients.
    ///   - retry: try the presentations given up again (`sclm sync --retry`).
    /// - Returns: the presentations to install, to report as skipped, and already up to date.
    /// - Throws: ``SyncError`` (`.unknownPresentation`) for an id that is not a presentation of those clients.
    package static func make(
        stored: [PresentationSummary], clientIds: Set<Int64>, presentationIds: [Int64], retry: Bool = false
    ) throws -> ContentPlan {
        let ofClients = stored.filter { clientIds.contains($0.clientId) }
        let known = Set(ofClients.map(\.presentationId))
        if let unknown = presentationIds.first(where: { !known.contains($0) }) {
            throw SyncError(
                .unknownPresentation, subject: "\(unknown) among the synced clients",
                detail: "`sclm list` shows the stored presentations")
        }
        let wanted = Set(presentationIds)
        var plan = ContentPlan(downloads: [], interrupted: [], givenUp: [], retried: [], skipped: [], upToDate: [])
        for summary in ofClients where wanted.isEmpty || wanted.contains(summary.presentationId) {
            if summary.skip {
                plan.skipped.append(summary)
            } else if summary.needsContent && summary.unpack.hasGivenUp(on: summary.revision) {
                if retry {
                    plan.retried.append(summary.presentationId)
                    plan.interrupted.append(summary)
                } else {
                    plan.givenUp.append(summary)
                }
            } else if summary.needsContent {
                if summary.unpack.unpacking == nil {
                    plan.downloads.append(summary)
                } else {
                    plan.interrupted.append(summary)
                }
            } else {
                plan.upToDate.append(summary.presentationId)
            }
        }
        return plan
    }
}

extension PresentationSummary {
    /// Whether the server's revision is not the installed one (or nothing is installed).
    package var needsContent: Bool { installedRevision != revision }
}
