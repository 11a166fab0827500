import Foundation
import SCLMBridge
import SCLMCore
import SCLMStore

/// The navigation and session rules of a presentation screen as a reducer over values: the screen (what is
/// open, on which slide since when, the histories, the navigation data) and an action (show a presentation,
/// go to a slide, close, end of input) give the next screen and the effects: session rows to write and
/// events to emit.
///
/// ``PresentationHost`` executes it for every host (the stdio bridge, a player): it reads what the rules
/// need from the database, writes the effects in one transaction, then keeps the new screen and emits the
/// events. Ids and the time come in ``Context``; the only look outside the values is
/// ``InstalledPresentation/hasSlide(_:)``, which checks the package folder for a slide the metadata does not
/// list (content installed without slide metadata).
///
/// Sessions follow StoryContent: a session opens with its presentation (an unfinished one of the user is
/// restored), each slide left is logged with its duration, showing another presentation leaves the first
/// session unfinished (state 3), `closePresentation` mode 1 (and 0) completes it, mode 2 marks it test, and
/// end of input logs the slide on screen and leaves the session unfinished for the next run. Under an
/// unattended ``SessionPolicy`` (`sclm play`) the host also completes a session after an idle time, on a
/// return to the start slide and when it stops. Durations come from the monotonic clock; wall times never go
/// back within a session, however the wall clock is set.
struct PresentationScreen: Sendable, Equatable {
    /// A presentation once shown, for `getBackForwardPresList`.
    struct Visit: Sendable, Equatable {
        var name: String
        var presentationId: Int64
    }

    /// The presentation on screen, if any.
    var open: PresentationHost.OpenPresentation?
    /// Every presentation shown, in order.
    var presentationHistory: [Visit] = []
    /// The `data` of the last `open` or `go`.
    var navigationData: JSONValue = [:]

    /// What a host asks of the screen.
    enum Action: Sendable, Equatable {
        /// Show a presentation (see ``Showing``).
        case show(Showing)
        /// `go`: another slide of the open presentation.
        case go(slide: String, data: JSONValue)
        /// `closePresentation` with its mode.
        case close(mode: Int64)
        /// Input ended: log the slide on screen, keep the session unfinished.
        case endOfInput
        /// The host stops for good: log the slide on screen and complete the session.
        case stop
        /// A check for ``SessionPolicy/idle``: complete the session when nothing changed for that long.
        case idle
    }

    /// A presentation to show, with what the database says about its session.
    struct Showing: Sendable, Equatable {
        var presentation: InstalledPresentation
        /// The slide asked for, if any.
        var requested: String?
        /// The presentation's start slide.
        var start: String
        var data: JSONValue
        /// Whether a restored session resumes on its last slide (when no slide is asked for).
        var resumeLastSlide: Bool
        /// The user's unfinished session of the presentation, to restore.
        var unfinished: SessionRecord?
        /// The restored session's last slide view, when a restarted player continues it.
        var lastView: SlideActionRecord? = nil
    }

    /// The time, the ids of what an action may create, and who is logged in.
    struct Context: Sendable, Equatable {
        var now: Date
        /// The monotonic time, which durations are measured on.
        var uptime: Duration
        var environment: HostEnvironment
        var timeZoneHours: Int64
        /// The id of a session the action starts.
        var sessionId: String
        /// The id of the slide view the action logs.
        var viewId: String
        /// When the host ends sessions by itself.
        var policy: SessionPolicy = .byContent

        /// `now` as stored.
        var stamp: String { Timestamp.string(from: now) }
    }

    /// What an action makes the host do, in order.
    struct Effects: Sendable, Equatable {
        var writes: [SessionWrite] = []
        var events: [ScreenEvent] = []
    }

    /// Applies `action`.
    ///
    /// - Returns: the writes and events it causes; the screen is changed in place.
    /// - Throws: ``BridgeError`` (404) when nothing is open for `go`, `close` or when the slide is not the
    ///   presentation's, (400) for a close mode other than 0, 1 or 2.
    mutating func reduce(_ action: Action, _ context: Context) throws -> Effects {
        switch action {
        case .show(let showing): show(showing, context)
        case .go(let slide, let data): try go(to: slide, data: data, context)
        case .close(let mode): try close(mode: mode, context)
        case .endOfInput: endOfInput(context, ending: false)
        case .stop: endOfInput(context, ending: true)
        case .idle: idle(context)
        }
    }

    // MARK: - Actions

    private mutating func show(_ showing: Showing, _ context: Context) -> Effects {
        let presentation = showing.presentation
        var effects = Effects()
        let previous = open
        if let previous { effects.writes += Self.end(previous, state: .leftViaContent, context) }
        var session = newSession(for: presentation.presentationId, at: context.now, context)
        if var unfinished = showing.unfinished {
            effects.writes.append(.restoreSession(id: unfinished.sessionId))
            unfinished.state = .inProcess
            unfinished.isRestored = true
            session = unfinished
        } else {
            effects.writes.append(.insertSession(session))
        }
        let resumed =
            showing.resumeLastSlide ? session.lastOpenedSlideName.flatMap { presentation.hasSlide($0) ? $0 : nil } : nil
        let slide = showing.requested ?? resumed ?? showing.start
        effects.writes.append(
            .setLastOpenedSlide(
                sessionId: session.sessionId, slideId: presentation.slide(named: slide)?.id, slideName: slide))
        // Never before the session's start, whatever the wall clock says now.
        let shownAt = max(context.now, Timestamp.date(from: session.created) ?? context.now)
        var shown = PresentationHost.OpenPresentation(
            presentation: presentation, session: session, slide: slide, slideShownAt: shownAt,
            slideShownUptime: context.uptime, slideHistory: [slide], startSlide: showing.start)
        if let last = showing.lastView, last.slideName == slide, last.sessionId == session.sessionId {
            shown.continuedViewId = last.id
        }
        open = shown
        presentationHistory.append(Visit(name: presentation.name, presentationId: presentation.presentationId))
        navigationData = showing.data
        if let previous { effects.events.append(.closed(previous, mode: nil, state: .leftViaContent)) }
        effects.events += [.opened(shown), .slideChanged(slide: slide, previous: previous?.slide)]
        return effects
    }

    private mutating func go(to slide: String, data: JSONValue, _ context: Context) throws -> Effects {
        guard let current = open else { throw PresentationHost.nothingOpen }
        guard current.presentation.hasSlide(slide) else {
            throw BridgeError(.notFound, "no slides with this name: \(slide)")
        }
        let now = max(context.now, current.slideShownAt)
        var writes: [SessionWrite] = []
        if current.sessionEnded || (context.policy.endsAtStartSlide && slide == current.startSlide) {
            // A new visitor: the session before ends (unless the idle time ended it), a new one starts here.
            if !current.sessionEnded { writes += Self.end(current, state: .complete, context) }
            let session = newSession(for: current.presentation.presentationId, at: now, context)
            writes.append(.insertSession(session))
            open?.session = session
        } else {
            writes.append(Self.leave(current, context))
        }
        open?.slide = slide
        open?.slideShownAt = now
        open?.slideShownUptime = context.uptime
        open?.slideHistory.append(slide)
        open?.sessionEnded = false
        open?.continuedViewId = nil
        navigationData = data
        let slideId = current.presentation.slide(named: slide)?.id
        let sessionId = open?.session.sessionId ?? current.session.sessionId
        writes.append(.setLastOpenedSlide(sessionId: sessionId, slideId: slideId, slideName: slide))
        return Effects(writes: writes, events: [.slideChanged(slide: slide, previous: current.slide)])
    }

    private mutating func close(mode: Int64, _ context: Context) throws -> Effects {
        guard (0...2).contains(mode) else {
            throw BridgeError(
                .badRequest, "mode must be 0 (close button), 1 (save the session) or 2 (test, no session)")
        }
        guard let current = open else { throw PresentationHost.nothingOpen }
        let state: SessionRecord.State = mode == 2 ? .test : .complete
        open = nil
        return Effects(
            writes: Self.end(current, state: state, context), events: [.closed(current, mode: mode, state: state)])
    }

    private mutating func endOfInput(_ context: Context, ending: Bool) -> Effects {
        guard let current = open, !current.sessionEnded else { return Effects() }
        open?.slideShownAt = max(context.now, current.slideShownAt)
        open?.slideShownUptime = context.uptime
        if ending {
            open?.sessionEnded = true
            return Effects(writes: Self.end(current, state: .complete, context))
        }
        return Effects(writes: [Self.leave(current, context)])
    }

    private mutating func idle(_ context: Context) -> Effects {
        guard let current = open, !current.sessionEnded, let limit = context.policy.idle,
            context.uptime - current.slideShownUptime >= limit
        else { return Effects() }
        open?.sessionEnded = true
        return Effects(writes: Self.end(current, state: .complete, context))
    }

    // MARK: - Records

    /// The writes that end the session of `open` in `state`: the slide on screen is logged first (none when
    /// the host already ended it).
    private static func end(_ open: PresentationHost.OpenPresentation, state: SessionRecord.State, _ context: Context)
        -> [SessionWrite]
    {
        guard !open.sessionEnded else { return [] }
        return [leave(open, context), .closeSession(id: open.session.sessionId, state: state)]
    }

    /// The write that logs the slide on screen as left now: a new slide view, or more time for the view a
    /// restarted player continues.
    private static func leave(_ open: PresentationHost.OpenPresentation, _ context: Context) -> SessionWrite {
        let view = slideView(of: open, context)
        guard let continued = open.continuedViewId else { return .recordSlideView(view) }
        return .extendSlideView(id: continued, sessionId: view.sessionId, seconds: view.duration)
    }

    /// The finished view of the slide on screen, for the session log.
    static func slideView(of open: PresentationHost.OpenPresentation, _ context: Context) -> SlideActionRecord {
        let coordinates = context.environment.coordinates
        return SlideActionRecord(
            id: context.viewId, sessionId: open.session.sessionId, presentationId: open.presentation.presentationId,
            userId: context.environment.userId, slideId: open.presentation.slide(named: open.slide)?.id,
            slideName: open.slide, navigation: "in", duration: seconds(context.uptime - open.slideShownUptime),
            created: Timestamp.string(from: open.slideShownAt), timeZone: context.timeZoneHours,
            latitude: coordinates.latitude, longitude: coordinates.longitude)
    }

    /// Whole seconds of a monotonic duration (never negative).
    static func seconds(_ duration: Duration) -> Int64 {
        max(0, Int64(duration.inSeconds.rounded()))
    }

    private func newSession(for presentationId: Int64, at start: Date, _ context: Context) -> SessionRecord {
        let environment = context.environment
        let coordinates = environment.coordinates
        return SessionRecord(
            sessionId: context.sessionId, presentationId: presentationId, userId: environment.userId,
            created: Timestamp.string(from: start), timeZone: context.timeZoneHours, latitude: coordinates.latitude,
            longitude: coordinates.longitude, address: environment.address.isEmpty ? nil : environment.address)
    }
}
