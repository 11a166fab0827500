import Foundation
import SCLMBridge
import SCLMCore
import SCLMStore
import Synchronization

extension PresentationHost {
    /// Shows `presentation`: the presentation on screen (if another) is left with its session unfinished
    /// (state 3), this one's session starts or is restored, and the events a screen would cause are emitted.
    ///
    /// - Throws: `SCLMError` (`.notFound`) when the presentation has no start slide; ``StoreError``.
    func show(
        _ presentation: InstalledPresentation, slide requested: String?, data: JSONValue, resumeLastSlide: Bool,
        continuing: Bool = false
    ) async throws {
        // The start slide; a package without one can still open on the slide asked for.
        let start = try (try? presentation.startSlide()) ?? requested ?? presentation.startSlide()
        let userId = environment.userId
        try await perform { db in
            // Read in the transaction that writes, so two hosts cannot both restore or start the session.
            let unfinished = try db.unfinishedSession(presentationId: presentation.presentationId, userId: userId)
            return .show(
                PresentationScreen.Showing(
                    presentation: presentation, requested: requested, start: start, data: data,
                    resumeLastSlide: resumeLastSlide, unfinished: unfinished,
                    lastView: continuing
                        ? try unfinished.flatMap { try db.lastSlideView(sessionId: $0.sessionId) } : nil))
        }
    }

    /// `go`: shows `slide` of the open presentation and logs the slide being left.
    ///
    /// - Throws: ``BridgeError`` (404) when nothing is open or the presentation has no such slide; ``StoreError``.
    func go(to slide: String, data: JSONValue) async throws {
        try await perform(.go(slide: slide, data: data))
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
    ///
    /// - Throws: ``BridgeError`` (400) for another mode, (404) when nothing is open; ``StoreError``.
    func close(mode: Int64) async throws {
        try await perform(.close(mode: mode))
    }

    // MARK: - Executing the reducer

    /// Runs `action` through the ``PresentationScreen`` reducer and performs its effects from memory: the
    /// writes go to the ``recorder`` (one transaction, in order), then the new screen, then the events. A
    /// refused action changes nothing.
    ///
    /// - Throws: what the reducer throws (``BridgeError``).
    func perform(_ action: PresentationScreen.Action) async throws {
        let context = makeContext()
        var screen = state.withLock { $0.screen }
        let effects = try screen.reduce(action, context)
        if !effects.writes.isEmpty {
            recorder.record { [effects] db in try effects.performWrites(on: db, now: context.stamp) }
        }
        commit(screen, effects)
    }

    /// Like ``perform(_:)``, for an action that needs the database (showing a presentation reads its unfinished
    /// session): once the recorder has caught up, `action` reads it inside the transaction that writes the
    /// effects.
    ///
    /// - Throws: what `action` or the reducer throws, ``BridgeError`` (503) while recording is behind,
    ///   ``StoreError``.
    func perform(_ action: @escaping @Sendable (Database) throws -> PresentationScreen.Action) async throws {
        try await recorded()
        let context = makeContext()
        let screen = state.withLock { $0.screen }
        let (next, effects) = try await store.write { db in
            var next = screen
            let effects = try next.reduce(try action(db), context)
            try effects.performWrites(on: db, now: context.stamp)
            return (next, effects)
        }
        commit(next, effects)
    }

    /// Keeps `screen` and emits the events of `effects`. Commands that change the screen run one at a time
    /// (the ``lane``), so no other change happened since the screen was read.
    private func commit(_ screen: PresentationScreen, _ effects: PresentationScreen.Effects) {
        state.withLock { $0.screen = screen }
        for event in effects.events { output.emit(event.bridgeEvent) }
    }

    /// The time, fresh ids and the environment for one action.
    private func makeContext() -> PresentationScreen.Context {
        PresentationScreen.Context(
            now: clock.now, uptime: clock.uptime, environment: environment, timeZoneHours: Self.timeZoneHours,
            sessionId: UUID().uuidString,
            viewId: UUID().uuidString, policy: sessionPolicy)
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
}
