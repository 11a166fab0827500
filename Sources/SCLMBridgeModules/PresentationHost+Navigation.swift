import Foundation
import SCLMBridge
import SCLMCore
import SCLMStore
import Synchronization

extension PresentationHost {
    /// Shows `presentation`: the presentation on screen (if another) is left with its session unfinished
    /// (state 3), this one's session starts or is restored, and the events a screen would cause are emitted.
    func show(_ presentation: InstalledPresentation, slide requested: String?, data: JSONValue, resumeLastSlide: Bool)
        async throws
    {
        let now = clock.now
        let stamp = Timestamp.string(from: now)
        let previous = state.withLock { $0.open }
        let leaving = previous.map { slideView(of: $0, until: now, navigation: "in") }
        let start = try requested ?? presentation.startSlide()
        let fresh = newSession(for: presentation.presentationId, created: stamp)
        let userId = environment.userId
        let (session, slide) = try await store.write { db -> (SessionRecord, String) in
            if let previous, let leaving {
                try db.recordSlideView(leaving, now: stamp)
                try db.closeSession(id: previous.session.sessionId, state: .leftViaContent, now: stamp)
            }
            var session = fresh
            if var unfinished = try db.unfinishedSession(presentationId: presentation.presentationId, userId: userId) {
                try db.restoreSession(id: unfinished.sessionId, now: stamp)
                unfinished.state = .inProcess
                unfinished.isRestored = true
                session = unfinished
            } else {
                try db.insertSession(fresh)
            }
            let resumed = resumeLastSlide ? session.lastOpenedSlideName.flatMap { presentation.hasSlide($0) ? $0 : nil } : nil
            let slide = requested ?? resumed ?? start
            try db.setLastOpenedSlide(
                sessionId: session.sessionId, slideId: presentation.slide(named: slide)?.id, slideName: slide, now: stamp)
            return (session, slide)
        }
        state.withLock { state in
            state.open = OpenPresentation(
                presentation: presentation, session: session, slide: slide, slideShownAt: now, slideHistory: [slide])
            state.presentationHistory.append((presentation.name, presentation.presentationId))
            state.navigationData = data
        }
        if let previous {
            emitClosed(previous, mode: nil, state: .leftViaContent)
        }
        emit(
            "presentationOpened",
            [
                "presId": .int(presentation.presentationId), "name": .string(presentation.name), "slide": .string(slide),
                "sessionId": .string(session.sessionId), "isRestored": .bool(session.isRestored),
            ])
        emit("slideChanged", ["slide": .string(slide), "previous": previous.map { .string($0.slide) } ?? .null])
    }

    /// `go`: shows `slide` of the open presentation and logs the slide being left.
    func go(to slide: String, data: JSONValue) async throws {
        let open = try current()
        guard open.presentation.hasSlide(slide) else {
            throw BridgeError(.notFound, "no slides with this name: \(slide)")
        }
        let now = clock.now
        let stamp = Timestamp.string(from: now)
        let view = slideView(of: open, until: now, navigation: "in")
        let slideId = open.presentation.slide(named: slide)?.id
        try await store.write { db in
            try db.recordSlideView(view, now: stamp)
            try db.setLastOpenedSlide(sessionId: open.session.sessionId, slideId: slideId, slideName: slide, now: stamp)
        }
        state.withLock { state in
            state.open?.slide = slide
            state.open?.slideShownAt = now
            state.open?.slideHistory.append(slide)
            state.navigationData = data
        }
        emit("slideChanged", ["slide": .string(slide), "previous": .string(open.slide)])
    }

    /// `open`: another presentation (or a slide of this one when `presentationId` is the open one).
    func open(presentationId: Int64, slide: String?, data: JSONValue) async throws {
        if let open = state.withLock({ $0.open }), open.presentation.presentationId == presentationId {
            return try await go(to: try slide ?? Self.startSlide(of: open.presentation), data: data)
        }
        let presentation = try await loadPresentation(presentationId)
        if let slide, !presentation.hasSlide(slide) {
            throw BridgeError(.notFound, "no slides with this name: \(slide) (presentation \(presentationId))")
        }
        let start = try slide ?? Self.startSlide(of: presentation)
        try await show(presentation, slide: start, data: data, resumeLastSlide: false)
    }

    /// `closePresentation`: mode 1 (and 0, the close button, which has no dialog here) completes the session,
    /// mode 2 marks it a test run.
    func close(mode: Int64) async throws {
        guard (0...2).contains(mode) else {
            throw BridgeError(.badRequest, "mode must be 0 (close button), 1 (save the session) or 2 (test, no session)")
        }
        let open = try current()
        let sessionState: SessionRecord.State = mode == 2 ? .test : .complete
        let now = clock.now
        let stamp = Timestamp.string(from: now)
        let view = slideView(of: open, until: now, navigation: "in")
        try await store.write { db in
            try db.recordSlideView(view, now: stamp)
            try db.closeSession(id: open.session.sessionId, state: sessionState, now: stamp)
        }
        state.withLock { $0.open = nil }
        emitClosed(open, mode: mode, state: sessionState)
    }

    private func emitClosed(_ open: OpenPresentation, mode: Int64?, state: SessionRecord.State) {
        emit(
            "presentationClosed",
            [
                "presId": .int(open.presentation.presentationId), "name": .string(open.presentation.name),
                "mode": mode.map { .int($0) } ?? .null, "sessionId": .string(open.session.sessionId),
                "state": .int(state.rawValue),
            ])
    }

    /// The start slide of a presentation content opens; none is a 404 for content.
    private static func startSlide(of presentation: InstalledPresentation) throws -> String {
        do {
            return try presentation.startSlide()
        } catch let error as SCLMError {
            throw BridgeError(.notFound, error.message)
        }
    }

    /// `getNextSlide` / `getPreviousSlide`: the slide a swipe leads to from the one on screen, by
    /// ``SwipeRule`` (the slide's own meta first, then the server's target, then presentation order).
    ///
    /// - Throws: ``BridgeError`` (404) when there is none that way or the package lacks the target.
    func swipeTarget(_ direction: SwipeRule.Direction) throws -> String {
        let open = try current()
        let presentation = open.presentation
        let target = SwipeRule.target(
            direction, from: open.slide, declared: presentation.declaredNavigation(of: open.slide),
            server: presentation.slide(named: open.slide), order: presentation.slides.map(\.name))
        guard case .slide(let name) = target else { throw BridgeError(.notFound, direction.noSlideMessage) }
        guard presentation.packageHas(name) else {
            throw BridgeError(.notFound, "\(direction.noSlideMessage): the package has no slide '\(name)'")
        }
        return name
    }

    private func newSession(for presentationId: Int64, created: String) -> SessionRecord {
        let coordinates = environment.coordinates
        return SessionRecord(
            sessionId: UUID().uuidString, presentationId: presentationId, userId: environment.userId, created: created,
            timeZone: Self.timeZoneHours, latitude: coordinates.latitude, longitude: coordinates.longitude,
            address: environment.address.isEmpty ? nil : environment.address)
    }
}
