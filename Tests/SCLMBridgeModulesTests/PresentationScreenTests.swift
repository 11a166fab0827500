import Foundation
import SCLMBridge
import SCLMCore
import SCLMStore
import SCLMTestSupport
import Testing

@testable import SCLMBridgeModules

/// Every session and navigation rule of a presentation screen, as tables of actions fed to the reducer.
@Suite(.tags(.small)) struct PresentationScreenTests {
    typealias Screen = PresentationScreen
    typealias Open = PresentationHost.OpenPresentation

    static let start = Date(timeIntervalSince1970: 1_767_225_600)
    static let environment = HostEnvironment(userId: "u1", latitude: "45.5", address: "Hall 2")

    static func presentation(_ id: Int64, _ name: String, slides: [String]) -> InstalledPresentation {
        InstalledPresentation(
            presentationId: id, clientId: 1, name: name, shortDescription: "", longDescription: "", revision: 1,
            order: 0, syncState: 5, mapEnabled: false,
            slides: slides.enumerated().map { index, slide in
                .init(id: id * 100 + Int64(index), name: slide, linkedSlides: [], swipeNext: nil, swipePrevious: nil)
            }, mediaFiles: [], sourcesDirectory: "/nonexistent/sclm/\(id)")
    }

    static let one = presentation(10, "One", slides: ["index.html", "slide1.html", "slide2.html"])
    static let two = presentation(20, "Two", slides: ["index.html"])

    /// The context of the action at `seconds` after the start; ids name the step.
    static func context(_ seconds: Double, step: Int) -> Screen.Context {
        Screen.Context(
            now: start.addingTimeInterval(seconds), uptime: .seconds(seconds), environment: environment,
            timeZoneHours: 3,
            sessionId: "s\(step)", viewId: "v\(step)")
    }

    static func stamp(_ seconds: Double) -> String { Timestamp.string(from: start.addingTimeInterval(seconds)) }

    static func showing(
        _ presentation: InstalledPresentation, slide: String? = nil, resume: Bool = false,
        unfinished: SessionRecord? = nil
    ) -> Screen.Action {
        .show(
            Screen.Showing(
                presentation: presentation, requested: slide, start: "index.html", data: ["from": "test"],
                resumeLastSlide: resume, unfinished: unfinished))
    }

    static func session(_ id: String, of presentationId: Int64, at seconds: Double, last: String? = nil)
        -> SessionRecord
    {
        var session = SessionRecord(
            sessionId: id, presentationId: presentationId, userId: "u1", created: stamp(seconds), timeZone: 3,
            latitude: 45.5, address: "Hall 2")
        session.lastOpenedSlideName = last
        return session
    }

    static func view(
        _ id: String, session: String, of presentation: InstalledPresentation, slide: String, from: Double, to: Double
    ) -> SlideActionRecord {
        SlideActionRecord(
            id: id, sessionId: session, presentationId: presentation.presentationId, userId: "u1",
            slideId: presentation.slide(named: slide)?.id, slideName: slide, navigation: "in",
            duration: Int64((to - from).rounded()), created: stamp(from), timeZone: 3, latitude: 45.5)
    }

    /// One action at a time, with the effects (or the error status) it must give.
    struct Step: Sendable {
        var action: Screen.Action
        var at: Double
        var writes: [SessionWrite] = []
        var events: [String] = []
        var refusal: Int? = nil
    }

    /// A sequence of actions from an empty screen, and the slide on screen at the end.
    struct Case: Sendable, CustomTestStringConvertible {
        var name: String
        var steps: [Step]
        var slide: String?
        var history: [String] = []
        var testDescription: String { name }
    }

    static let opened = ["presentationOpened", "slideChanged"]

    static let cases: [Case] = [
        Case(
            name: "showing a presentation starts a session on its start slide",
            steps: [
                Step(
                    action: showing(one), at: 0,
                    writes: [
                        .insertSession(session("s1", of: 10, at: 0)),
                        .setLastOpenedSlide(sessionId: "s1", slideId: 1000, slideName: "index.html"),
                    ], events: opened)
            ], slide: "index.html", history: ["index.html"]),
        restoring(
            "an unfinished session is restored and resumes on its last slide", resume: true, last: "slide2.html",
            opensOn: "slide2.html"),
        restoring(
            "a restored session's last slide the presentation lacks falls back to the start slide", resume: true,
            last: "gone.html", opensOn: "index.html"),
        restoring(
            "a slide asked for wins over the restored session's last slide", slide: "slide1.html", resume: true,
            last: "slide2.html", opensOn: "slide1.html"),
        restoring(
            "without resuming, a restored session opens on the start slide", resume: false, last: "slide2.html",
            opensOn: "index.html"),
        Case(
            name: "go logs the slide left with its duration and moves on",
            steps: [
                showOne,
                Step(
                    action: .go(slide: "slide1.html", data: [:]), at: 12.4,
                    writes: [
                        .recordSlideView(view("v2", session: "s1", of: one, slide: "index.html", from: 0, to: 12.4)),
                        .setLastOpenedSlide(sessionId: "s1", slideId: 1001, slideName: "slide1.html"),
                    ], events: ["slideChanged"]),
            ], slide: "slide1.html", history: ["index.html", "slide1.html"]),
        Case(
            name: "go to a slide the presentation lacks is a 404 and changes nothing",
            steps: [
                showOne,
                Step(action: .go(slide: "nope.html", data: [:]), at: 5, refusal: 404),
            ], slide: "index.html", history: ["index.html"]),
        Case(
            name: "go with nothing open is a 404",
            steps: [Step(action: .go(slide: "index.html", data: [:]), at: 0, refusal: 404)], slide: nil),
        Case(
            name: "showing another presentation leaves the first session unfinished (state 3)",
            steps: [
                showOne,
                Step(
                    action: showing(two), at: 30,
                    writes: [
                        .recordSlideView(view("v2", session: "s1", of: one, slide: "index.html", from: 0, to: 30)),
                        .closeSession(id: "s1", state: .leftViaContent),
                        .insertSession(session("s2", of: 20, at: 30)),
                        .setLastOpenedSlide(sessionId: "s2", slideId: 2000, slideName: "index.html"),
                    ], events: ["presentationClosed"] + opened),
            ], slide: "index.html", history: ["index.html"]),
        Case(
            name: "close mode 1 completes the session",
            steps: [
                showOne,
                closing(mode: 1, at: 42, state: .complete),
            ], slide: nil),
        Case(
            name: "close mode 0 (the close button) completes the session too",
            steps: [
                showOne,
                closing(mode: 0, at: 1, state: .complete),
            ], slide: nil),
        Case(
            name: "close mode 2 marks the session a test",
            steps: [
                showOne,
                closing(mode: 2, at: 3, state: .test),
            ], slide: nil),
        Case(
            name: "another close mode is a 400, checked before anything is open",
            steps: [Step(action: .close(mode: 3), at: 0, refusal: 400)], slide: nil),
        Case(
            name: "close with nothing open is a 404",
            steps: [Step(action: .close(mode: 1), at: 0, refusal: 404)], slide: nil),
        Case(
            name: "after close, go is a 404",
            steps: [
                showOne,
                closing(mode: 1, at: 2, state: .complete),
                Step(action: .go(slide: "index.html", data: [:]), at: 3, refusal: 404),
            ], slide: nil),
        Case(
            name: "end of input logs the slide on screen and keeps the session open",
            steps: [
                showOne,
                Step(
                    action: .endOfInput, at: 7,
                    writes: [.recordSlideView(view("v2", session: "s1", of: one, slide: "index.html", from: 0, to: 7))]),
            ], slide: "index.html", history: ["index.html"]),
        Case(
            name: "end of input with nothing open does nothing",
            steps: [Step(action: .endOfInput, at: 0)], slide: nil),
        Case(
            name: "a clock that went back logs a zero duration",
            steps: [
                Step(action: showing(one), at: 10, writes: firstSessionWrites(at: 10), events: opened),
                Step(
                    action: .endOfInput, at: 4,
                    writes: [
                        .recordSlideView(view("v2", session: "s1", of: one, slide: "index.html", from: 10, to: 10))
                    ]),
            ], slide: "index.html"),
    ]

    static var firstSessionWrites: [SessionWrite] { firstSessionWrites(at: 0) }

    /// Showing presentation 10 with an unfinished session whose last slide was `last`: the session is
    /// restored and the presentation opens on `slide`.
    static func restoring(
        _ name: String, slide: String? = nil, resume: Bool, last: String, opensOn expected: String
    ) -> Case {
        let unfinished = session("old", of: 10, at: -60, last: last)
        let step = Step(
            action: showing(one, slide: slide, resume: resume, unfinished: unfinished), at: 0,
            writes: [
                .restoreSession(id: "old"),
                .setLastOpenedSlide(sessionId: "old", slideId: one.slide(named: expected)?.id, slideName: expected),
            ], events: opened)
        return Case(name: name, steps: [step], slide: expected, history: [expected])
    }

    /// Showing presentation 10 on an empty screen, at the start.
    static var showOne: Step { Step(action: showing(one), at: 0, writes: firstSessionWrites, events: opened) }

    /// Closing presentation 10 (shown by ``showOne``) with `mode`, `seconds` after the start.
    static func closing(mode: Int64, at seconds: Double, state: SessionRecord.State) -> Step {
        Step(
            action: .close(mode: mode), at: seconds,
            writes: [
                .recordSlideView(view("v2", session: "s1", of: one, slide: "index.html", from: 0, to: seconds)),
                .closeSession(id: "s1", state: state),
            ], events: ["presentationClosed"])
    }

    static func firstSessionWrites(at seconds: Double) -> [SessionWrite] {
        [
            .insertSession(session("s1", of: 10, at: seconds)),
            .setLastOpenedSlide(sessionId: "s1", slideId: 1000, slideName: "index.html"),
        ]
    }

    @Test(arguments: cases) func followsTheRules(_ test: Case) throws {
        var screen = Screen()
        for (index, step) in test.steps.enumerated() {
            let before = screen
            let context = Self.context(step.at, step: index + 1)
            if let status = step.refusal {
                let error = try #require(throws: BridgeError.self) { try screen.reduce(step.action, context) }
                #expect(error.code.rawValue == status, "step \(index + 1)")
                #expect(screen == before, "step \(index + 1) changed the screen")
                continue
            }
            let effects = try screen.reduce(step.action, context)
            #expect(effects.writes == step.writes, "step \(index + 1)")
            #expect(effects.events.map(\.bridgeEvent.name) == step.events, "step \(index + 1)")
        }
        #expect(screen.open?.slide == test.slide)
        if !test.history.isEmpty { #expect(screen.open?.slideHistory == test.history) }
    }

    @Test func theEventsCarryWhatTheBridgeSends() throws {
        var screen = Screen()
        let restored = Self.session("old", of: 10, at: -5, last: "slide1.html")
        let opened = try screen.reduce(
            Self.showing(Self.one, resume: true, unfinished: restored), Self.context(0, step: 1))
        #expect(
            opened.events.map(\.bridgeEvent) == [
                BridgeEvent(
                    "presentationOpened",
                    [
                        "presId": 10, "name": "One", "slide": "slide1.html", "sessionId": "old", "isRestored": true,
                    ]),
                BridgeEvent("slideChanged", ["slide": "slide1.html", "previous": .null]),
            ])
        let moved = try screen.reduce(Self.showing(Self.two), Self.context(1, step: 2))
        #expect(
            moved.events.first?.bridgeEvent
                == BridgeEvent(
                    "presentationClosed",
                    ["presId": 10, "name": "One", "mode": .null, "sessionId": "old", "state": 3]))
        #expect(
            moved.events.last?.bridgeEvent
                == BridgeEvent("slideChanged", ["slide": "index.html", "previous": "slide1.html"]))
        let closed = try screen.reduce(.close(mode: 2), Self.context(2, step: 3))
        #expect(
            closed.events.map(\.bridgeEvent) == [
                BridgeEvent(
                    "presentationClosed", ["presId": 20, "name": "Two", "mode": 2, "sessionId": "s2", "state": 2])
            ])
    }

    @Test func showingKeepsTheNavigationDataAndThePresentationHistory() throws {
        var screen = Screen()
        _ = try screen.reduce(Self.showing(Self.one), Self.context(0, step: 1))
        _ = try screen.reduce(.go(slide: "slide2.html", data: ["k": 1]), Self.context(1, step: 2))
        #expect(screen.navigationData == ["k": 1])
        _ = try screen.reduce(Self.showing(Self.two), Self.context(2, step: 3))
        #expect(screen.navigationData == ["from": "test"])
        _ = try screen.reduce(.close(mode: 1), Self.context(3, step: 4))
        #expect(screen.presentationHistory.map(\.presentationId) == [10, 20])
        #expect(screen.navigationData == ["from": "test"])
    }
}
