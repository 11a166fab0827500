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
/// end of input logs the slide on screen and leaves the session unfinished for the next run.
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
    }

    /// The time, the ids of what an action may create, and who is logged in.
    struct Context: Sendable, Equatable {
        var now: Date
        var environment: HostEnvironment
        var timeZoneHours: Int64
        /// The id of a session the action starts.
        var sessionId: String
        /// The id of the slide view the action logs.
        var viewId: String

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
        case .endOfInput: endOfInput(context)
        }
    }

    // MARK: - Actions

    private mutating func show(_ showing: Showing, _ context: Context) -> Effects {
        let presentation = showing.presentation
        var effects = Effects()
        let previous = open
        if let previous {
            effects.writes += [
                .recordSlideView(Self.slideView(of: previous, context)),
                .closeSession(id: previous.session.sessionId, state: .leftViaContent),
            ]
        }
        var session = newSession(for: presentation.presentationId, context)
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
        let shown = PresentationHost.OpenPresentation(
            presentation: presentation, session: session, slide: slide, slideShownAt: context.now, slideHistory: [slide]
        )
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
        open?.slide = slide
        open?.slideShownAt = context.now
        open?.slideHistory.append(slide)
        navigationData = data
        let slideId = current.presentation.slide(named: slide)?.id
        return Effects(
            writes: [
                .recordSlideView(Self.slideView(of: current, context)),
                .setLastOpenedSlide(sessionId: current.session.sessionId, slideId: slideId, slideName: slide),
            ],
            events: [.slideChanged(slide: slide, previous: current.slide)])
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
            writes: [
                .recordSlideView(Self.slideView(of: current, context)),
                .closeSession(id: current.session.sessionId, state: state),
            ],
            events: [.closed(current, mode: mode, state: state)])
    }

    private mutating func endOfInput(_ context: Context) -> Effects {
        guard let current = open else { return Effects() }
        open?.slideShownAt = context.now
        return Effects(writes: [.recordSlideView(Self.slideView(of: current, context))])
    }

    // MARK: - Records

    /// The finished view of the slide on screen, for the session log.
    static func slideView(of open: PresentationHost.OpenPresentation, _ context: Context) -> SlideActionRecord {
        let coordinates = context.environment.coordinates
        return SlideActionRecord(
            id: context.viewId, sessionId: open.session.sessionId, presentationId: open.presentation.presentationId,
            userId: context.environment.userId, slideId: open.presentation.slide(named: open.slide)?.id,
            slideName: open.slide, navigation: "in", duration: seconds(from: open.slideShownAt, to: context.now),
            created: Timestamp.string(from: open.slideShownAt), timeZone: context.timeZoneHours,
            latitude: coordinates.latitude, longitude: coordinates.longitude)
    }

    /// Whole seconds between two instants (never negative).
    static func seconds(from start: Date, to end: Date) -> Int64 {
        max(0, Int64(end.timeIntervalSince(start).rounded()))
    }

    private func newSession(for presentationId: Int64, _ context: Context) -> SessionRecord {
        let environment = context.environment
        let coordinates = environment.coordinates
        return SessionRecord(
            sessionId: context.sessionId, presentationId: presentationId, userId: environment.userId,
            created: context.stamp, timeZone: context.timeZoneHours, latitude: coordinates.latitude,
            longitude: coordinates.longitude, address: environment.address.isEmpty ? nil : environment.address)
    }
}
