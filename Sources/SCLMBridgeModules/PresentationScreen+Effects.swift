import SCLMBridge
import SCLMCore
import SCLMStore

extension PresentationScreen.Effects {
    /// Performs the writes in order; call inside one ``ContentStore/write(_:)``.
    ///
    /// - Throws: ``StoreError``.
    func performWrites(on db: Database, now: String) throws {
        for write in writes { try write.perform(on: db, now: now) }
    }
}

/// A session row change a ``PresentationScreen`` action asks for, performed by the host in one transaction.
enum SessionWrite: Sendable, Equatable {
    /// Log a finished slide view (and count it in its session).
    case recordSlideView(SlideActionRecord)
    /// Add time to a slide view already logged (and to its session), without counting another view.
    case extendSlideView(id: String, sessionId: String, seconds: Int64)
    /// End a session in `state`.
    case closeSession(id: String, state: SessionRecord.State)
    /// Reopen an unfinished session.
    case restoreSession(id: String)
    /// Start a session.
    case insertSession(SessionRecord)
    /// Remember the slide a session shows, to resume on it.
    case setLastOpenedSlide(sessionId: String, slideId: Int64?, slideName: String)

    /// Performs the write with the store's functions; `now` is the action's time as stored.
    ///
    /// - Throws: ``StoreError``.
    func perform(on db: Database, now: String) throws {
        switch self {
        case .recordSlideView(let view): try db.recordSlideView(view, now: now)
        case .extendSlideView(let id, let sessionId, let seconds):
            try db.extendSlideView(id: id, sessionId: sessionId, by: seconds, now: now)
        case .closeSession(let id, let state): try db.closeSession(id: id, state: state, now: now)
        case .restoreSession(let id): try db.restoreSession(id: id, now: now)
        case .insertSession(let session): try db.insertSession(session)
        case .setLastOpenedSlide(let sessionId, let slideId, let slideName):
            try db.setLastOpenedSlide(sessionId: sessionId, slideId: slideId, slideName: slideName, now: now)
        }
    }
}

/// What a screen would show after a ``PresentationScreen`` action, emitted as an `Event` line.
enum ScreenEvent: Sendable, Equatable {
    /// `presentationOpened` with the presentation, its slide and session.
    case opened(PresentationHost.OpenPresentation)
    /// `slideChanged` from `previous` (none when a presentation opens) to `slide`.
    case slideChanged(slide: String, previous: String?)
    /// `presentationClosed`: the presentation left (`mode` nil when another was opened) and its session's
    /// new state.
    case closed(PresentationHost.OpenPresentation, mode: Int64?, state: SessionRecord.State)

    /// The bridge's event line.
    var bridgeEvent: BridgeEvent {
        switch self {
        case .opened(let open):
            BridgeEvent(
                .presentationOpened,
                [
                    "presId": .int(open.presentation.presentationId), "name": .string(open.presentation.name),
                    "slide": .string(open.slide), "sessionId": .string(open.session.sessionId),
                    "isRestored": .bool(open.session.isRestored),
                ])
        case .slideChanged(let slide, let previous):
            BridgeEvent(.slideChanged, ["slide": .string(slide), "previous": previous.map { .string($0) } ?? .null])
        case .closed(let open, let mode, let state):
            BridgeEvent(
                .presentationClosed,
                [
                    "presId": .int(open.presentation.presentationId), "name": .string(open.presentation.name),
                    "mode": mode.map { .int($0) } ?? .null, "sessionId": .string(open.session.sessionId),
                    "state": .int(state.rawValue),
                ])
        }
    }
}
