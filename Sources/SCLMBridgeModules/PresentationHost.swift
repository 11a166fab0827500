import Foundation
import SCLMBridge
import SCLMCore
import SCLMStore
import Synchronization

/// The headless counterpart of StoryContent's presentation screen: the state a WebView app keeps
/// (presentation and slide on screen, back/forward history, navigation data, UI flags, the session) and
/// the effects a screen would show, emitted as `Event` lines.
///
/// Every StoryCLM module shares one host. Commands that change state run one at a time in arrival order
/// (the modules share the ``lane``) and answer from memory: what they record (slide views, sessions, custom
/// events) goes to the host's ``SessionRecorder``, which writes it in order and keeps it while the database is
/// locked or the disk full, so playback never waits on the database. Reads of recorded data wait until the
/// recorder has written what came before them (``readRecorded(_:)``); reads of in-memory state answer without
/// a task. State lives behind a mutex because those reads run on the bridge's dispatch thread.
package final class PresentationHost: Sendable {
    /// The lane of every StoryCLM module.
    package static let lane = "storyclm"

    /// UI elements content can hide or show (what a screen would draw).
    struct UIFlags: Equatable {
        var closeButtonHidden = false
        var systemButtonsHidden = false
        var mediaLibraryButtonHidden = false
        var mapButtonHidden = false

        var json: JSONValue {
            [
                "closeButtonHidden": .bool(closeButtonHidden), "systemButtonsHidden": .bool(systemButtonsHidden),
                "mediaLibraryButtonHidden": .bool(mediaLibraryButtonHidden), "mapButtonHidden": .bool(mapButtonHidden),
            ]
        }
    }

    /// The presentation on screen and its session.
    struct OpenPresentation: Sendable, Equatable {
        var presentation: InstalledPresentation
        var session: SessionRecord
        var slide: String
        /// When the slide appeared (wall time, never before the session's start or the slide before).
        var slideShownAt: Date
        /// When the slide appeared in monotonic time: its duration is measured from here.
        var slideShownUptime: Duration
        var slideHistory: [String]
        /// The presentation's start slide.
        var startSlide: String
        /// The host ended the session (``SessionPolicy/idle``) while its last slide stays on screen: the next
        /// slide change starts a new session.
        var sessionEnded = false
        /// The slide view row this slide continues (a restarted player resuming the slide it showed), if any.
        var continuedViewId: String?
    }

    struct State {
        /// What content may read, fixed by the first presentation (see ``PresentationHost/scope()``).
        var scope: ContentScope?
        /// What is on screen; only ``PresentationHost/perform(_:)`` changes it, through its reducer.
        var screen = PresentationScreen()
        var ui = UIFlags()

        var open: OpenPresentation? { screen.open }
        var presentationHistory: [PresentationScreen.Visit] { screen.presentationHistory }
        var navigationData: JSONValue { screen.navigationData }
    }

    let store: ContentStore
    let home: Home
    let environment: HostEnvironment
    let clock: any WallClock
    let output: BridgeOutput
    let logger: Logger
    let state = Mutex(State())
    /// The one writer of what this host records.
    package let recorder: SessionRecorder
    /// When the host ends a session by itself (`sclm bridge`: never).
    let sessionPolicy: SessionPolicy

    /// Creates a host over `store` and the content in `home`; nothing is open until ``start(presentationId:slide:)``.
    package init(
        store: ContentStore, home: Home, environment: HostEnvironment, output: BridgeOutput,
        clock: any WallClock = SystemClock(), logger: Logger = Logger(), sessionPolicy: SessionPolicy = .byContent
    ) {
        self.store = store
        self.home = home
        self.environment = environment
        self.output = output
        self.clock = clock
        self.logger = logger
        recorder = SessionRecorder(store: store, logger: logger)
        self.sessionPolicy = sessionPolicy
    }

    /// The answer to commands that need an open presentation after `closePresentation`.
    static let nothingOpen = BridgeError(.notFound, "no presentation is open; send open with a presId")

    /// The StoryCLM modules (Base, Presentation, UI, Sessions, CustomEvents, MediaFiles, Map, and the
    /// storyclm.js 1.x names in Version1) on this host.
    package var modules: [any BridgeModule] {
        [
            BaseModule(host: self), PresentationModule(host: self), UIModule(host: self), SessionsModule(host: self),
            CustomEventsModule(host: self), MediaFilesModule(host: self), MapModule(host: self),
            Version1Module(host: self),
        ]
    }

    /// Opens the first presentation: its session starts (or the unfinished one is restored, resuming on its
    /// last slide unless `slide` is given), then `presentationOpened` and `slideChanged` are emitted.
    ///
    /// - Throws: `SCLMError` (`.notFound`) for a presentation that is not installed, (`.usage`) for an
    ///   unknown slide; ``StoreError``.
    package func start(presentationId: Int64, slide: String?) async throws {
        let presentation = try await store.read { [home] db in
            try InstalledPresentation.load(presentationId, from: db, home: home)
        }
        try await start(presentation, slide: slide)
    }

    /// Opens `presentation`, already loaded (see ``start(presentationId:slide:)``).
    ///
    /// Its client decides what content may read for the rest of the run: that client's presentations,
    /// sessions and custom events (``ContentScope``).
    ///
    /// - Throws: `SCLMError` (`.usage`) for an unknown slide; ``StoreError``.
    /// With `continuing` (a player's browser restart), the slide view the restored session ended on goes on
    /// when its slide is shown again, instead of a second row for the same view.
    package func start(_ presentation: InstalledPresentation, slide: String?, continuing: Bool = false) async throws {
        if let slide, !presentation.hasSlide(slide) {
            throw SCLMError(
                .usage,
                "presentation \(presentation.presentationId) has no slide '\(slide)'; pick one of its slides or leave --slide out"
            )
        }
        let scope = environment.scope(clientId: presentation.clientId)
        state.withLock { $0.scope = $0.scope ?? scope }
        try await show(presentation, slide: slide, data: [:], resumeLastSlide: slide == nil, continuing: continuing)
    }

    /// Waits (at most `patience`) until everything recorded is written; what is left stays queued while the
    /// process lives (see ``SessionRecorder/finish(patience:)``).
    package func finishRecording(patience: Duration = .seconds(10)) async {
        await recorder.finish(patience: patience)
    }

    /// Ends a run when input ends: the slide on screen is logged with its time, and the session stays
    /// unfinished so the next run restores it, unless the ``SessionPolicy`` ends sessions when the host stops
    /// and no browser restart follows (`restarting`).
    package func finish(restarting: Bool = false) async {
        guard let open = state.withLock({ $0.open }) else { return }
        do {
            try await perform(sessionPolicy.endsOnStop && !restarting ? .stop : .endOfInput)
        } catch {
            let session = open.session.sessionId
            logger.error("could not record the last slide view of session \(session): \(error.userMessage)")
        }
    }

    /// Ends the session when nothing changed on screen for the policy's ``SessionPolicy/idle`` time (measured
    /// on the monotonic clock); a later slide change starts a new one.
    package func endSessionIfIdle() async {
        guard sessionPolicy.idle != nil else { return }
        try? await perform(.idle)
    }

    /// Calls ``endSessionIfIdle()`` every `interval` until cancelled; returns at once without an idle limit.
    package func endIdleSessions(checkingEvery interval: Duration) async {
        guard sessionPolicy.idle != nil else { return }
        while (try? await Task.sleep(for: interval)) != nil { await endSessionIfIdle() }
    }

    // MARK: - Reading state

    /// The open presentation.
    ///
    /// - Throws: ``BridgeError`` (404) when none is open (after `closePresentation`).
    func current() throws -> OpenPresentation {
        guard let open = state.withLock({ $0.open }) else { throw Self.nothingOpen }
        return open
    }

    /// What content may read: the first presentation's client's presentations, sessions and custom events.
    ///
    /// - Throws: ``BridgeError`` (404) before the host has started.
    func scope() throws -> ContentScope {
        guard let scope = state.withLock({ $0.scope }) else { throw Self.nothingOpen }
        return scope
    }

    /// Loads an installed presentation content asks for, within the ``scope()``; others are 404.
    ///
    /// - Throws: ``BridgeError`` (404) naming why.
    func loadPresentation(_ presentationId: Int64) async throws -> InstalledPresentation {
        let scope = try scope()
        do {
            return try await store.read { [home] db in
                try InstalledPresentation.load(presentationId, from: db, home: home, scope: scope)
            }
        } catch let error as SCLMError where error.category == .notFound {
            throw BridgeError(.notFound, "No presentation with this Id: \(error.message)")
        }
    }

    /// The slide on screen (without copying the rest of the state: this is the hottest read).
    ///
    /// - Throws: ``BridgeError`` (404) when no presentation is open.
    func currentSlide() throws -> String {
        guard let slide = state.withLock({ $0.open?.slide }) else { throw Self.nothingOpen }
        return slide
    }

    /// Runs `body` in a read transaction once the recorder has written everything recorded before it.
    ///
    /// - Throws: ``BridgeError`` (503) when recording is still behind after a few seconds (the database locked or
    ///   the disk full); what `body` throws, ``StoreError``.
    func readRecorded<T: Sendable>(_ body: @escaping @Sendable (Database) throws -> T) async throws -> T {
        try await recorded()
        return try await store.read(body)
    }

    /// Returns once the recorder has written everything recorded so far.
    ///
    /// - Throws: ``BridgeError`` (503) when it is still behind after ``recordingPatience``.
    func recorded() async throws {
        guard await recorder.catchUp(patience: Self.recordingPatience) else {
            throw BridgeError(
                .unavailable, "recording is behind (the database is locked or the disk is full); try again later")
        }
    }

    /// How long a read of recorded data waits for the recorder.
    static let recordingPatience = Duration.seconds(3)

    /// Emits an event line.
    func emit(_ name: BridgeEventName, _ data: JSONValue) {
        output.emit(BridgeEvent(name, data))
    }

    /// The local offset from UTC in hours, as StoryContent stores it.
    static var timeZoneHours: Int64 { Int64(TimeZone.current.secondsFromGMT() / 3600) }
}
