import Foundation
import SCLMBridge
import SCLMBridgeModules
import SCLMBrowser
import SCLMCore
import SCLMStore

/// One `sclm play` run: a browser, one page, the bridge in it, until the content closes the
/// presentation, the page or browser dies, the time limit passes or the user interrupts.
///
/// The host and modules are those of `sclm bridge` (``PresentationHosting/hostPage(_:presentationId:slide:siteHost:serverInfo:isolation:_:)``,
/// on the one hosting the command gives it: one curl engine across kiosk restarts). Playback is unattended, so
/// the host ends sessions by itself (``SessionPolicy/unattended(idle:)`` with `play.sessionIdle`): after that
/// long without a slide change, on a return to the start slide and when the player stops; a browser restart
/// keeps the session and continues the slide view it was on. Under a `Type=notify` unit it tells systemd
/// `READY=1` once the first slide shows and feeds its watchdog while the page answers (``PlayerWatchdog``).
package struct Player: Sendable {
    /// A bound on a run's length.
    package enum Limit: Sendable, Equatable {
        /// `--timeout`: past it the run ends as ``PageBridge/Outcome/timedOut``.
        case timeout(Duration)
        /// `--duration`: past it the run ends as ``PageBridge/Outcome/elapsed``.
        case duration(Duration)
    }

    let presentationId: Int64
    let slide: String?
    let options: BrowserOptions
    /// How the run is bounded: `--timeout` (the content should close itself first) or `--duration` (play
    /// that long and end well); `nil` runs until the content closes it.
    private(set) var limit: Limit?
    let failsOnError: Bool
    /// The home, its store and settings, and the bridge modules (the HTTP and OSAM ones share one curl engine).
    let hosting: any PresentationHosting
    /// Where the narration goes: the events and page issues, as lines of text or, with `printsJSON`, as JSON.
    let output: StandardStream
    /// Whether the narration is JSON lines (`--json`).
    let printsJSON: Bool
    /// What the player is doing, across its browser runs (for its metrics).
    package let status: PlayerStatus
    /// Whether this run follows a browser restart of the same player (``continuing(after:)``).
    private(set) var isRestart = false

    /// Creates a run of presentation `presentationId`, starting on `slide` (the default one when `nil`).
    package init(
        presentationId: Int64, slide: String?, options: BrowserOptions, limit: Limit?, failsOnError: Bool,
        hosting: any PresentationHosting, output: StandardStream, printsJSON: Bool,
        status: PlayerStatus = PlayerStatus()
    ) {
        self.presentationId = presentationId
        self.slide = slide
        self.options = options
        self.limit = limit
        self.failsOnError = failsOnError
        self.hosting = hosting
        self.output = output
        self.printsJSON = printsJSON
        self.status = status
    }

    /// Runs the presentation once and says how it ended.
    ///
    /// - Throws: ``BrowserError`` (`.unavailable`) without a browser; errors loading the presentation.
    package func run() async throws -> PageBridge.Outcome {
        let policy = SessionPolicy.unattended(idle: .seconds(try hosting.configuration.required(.sessionIdle)))
        return try await Browser.withBrowser(options, environment: hosting.environment, logger: hosting.logger) {
            browser in
            let page = try await browser.newPage()
            let bridge = PageBridge(
                page: page, mode: .play, failsOnError: failsOnError,
                answersDialogs: options.mode == .headless, report: { issue in report(issue) },
                observe: { event in observe(event) },
                siteOfPresentation: { id in await site(of: id) })
            return try await hosting.hostPage(
                bridge, presentationId: presentationId, slide: slide, siteHost: Self.siteHost(of: presentationId),
                serverInfo: [
                    "name": "sclm", "version": .string(SCLMVersion.current), "presentationId": .int(presentationId),
                ], sessionPolicy: policy, continuing: isRestart
            ) { host, _ in
                let idleWatch = Task { await host.endIdleSessions(checkingEvery: .seconds(1)) }
                // The first slide shows: a `Type=notify` unit is started; its watchdog hears from the page.
                ServiceManager.notify("READY=1")
                let watchdog = PlayerWatchdog.current(logger: hosting.logger)
                let keepAlive = Task { await watchdog?.keepAlive(page: page, recorder: host.recorder) }
                let outcome = await status.attaching(host, browser: browser) {
                    await waitForEnd(of: bridge, browser: browser)
                }
                keepAlive.cancel()
                idleWatch.cancel()
                // Not cancelled with the command (Ctrl-C): the slide on screen is still recorded.
                // A kiosk restarts a crashed browser: the session goes on.
                let restarting = options.mode == .kiosk && Self.isCrash(outcome)
                if outcome != .closed { await withCancellationShield { await host.finish(restarting: restarting) } }
                return outcome
            }
        }
    }

    /// The next browser run of a kiosk whose earlier runs took `elapsed` together: the same player with what
    /// is left of its limit (`--duration` and `--timeout` count across browser restarts), or how the whole run
    /// ends when nothing is left.
    package func continuing(after elapsed: Duration) -> Continuation {
        var next = self
        next.isRestart = true
        switch limit {
        case .duration(let total):
            guard elapsed < total else { return .end(.elapsed) }
            next.limit = .duration(total - elapsed)
        case .timeout(let total):
            guard elapsed < total else { return .end(.timedOut) }
            next.limit = .timeout(total - elapsed)
        case nil:
            break
        }
        return .run(next)
    }

    /// What follows a kiosk's browser restart (``continuing(after:)``).
    package enum Continuation: Sendable {
        /// Run again, with this limit.
        case run(Player)
        /// The limit has passed: the run ends so.
        case end(PageBridge.Outcome)
    }

    /// Returns once the presentation is installed; until then (a kiosk before its first sync) says so once
    /// and looks again every `interval`, instead of failing into a restart loop, telling systemd it is ready
    /// and alive (`READY=1`, `WATCHDOG=1`) while it waits.
    ///
    /// - Throws: store errors other than "not installed", `CancellationError`.
    package func waitUntilInstalled(checkingEvery interval: Duration = .seconds(5)) async throws {
        let (store, home, id, logger) = (try hosting.store(), hosting.home, presentationId, hosting.logger)
        var announced = false
        while true {
            do {
                _ = try await store.read { db in try InstalledPresentation.load(id, from: db, home: home) }
                if announced { logger.info("presentation \(id) is installed; starting") }
                return
            } catch let error as SCLMError where error.category == .notFound {
                // Waiting is this kiosk's work until the first sync: `systemctl start` returns, the watchdog is fed.
                ServiceManager.notify(announced ? "WATCHDOG=1" : "READY=1\nWATCHDOG=1")
                if !announced {
                    logger.warning(
                        "waiting for presentation \(id) to be installed by `sclm sync` (sclm-sync.service): "
                            + error.userMessage)
                    announced = true
                }
            }
            try await Task.sleep(for: interval)
        }
    }

    /// Whether the page or the browser died.
    private static func isCrash(_ outcome: PageBridge.Outcome) -> Bool {
        if case .crashed = outcome { return true }
        return false
    }

    /// The private origin's host of a presentation.
    static func siteHost(of presentationId: Int64) -> String { "presentation-\(presentationId).sclm.invalid" }

    /// The package of presentation `id` when content opens it (the host has already loaded it to show it).
    private func site(of id: Int64) async -> PackageSite? {
        let home = hosting.home
        guard let store = try? hosting.store(),
            let presentation = try? await store.read({ db in try InstalledPresentation.load(id, from: db, home: home) })
        else { return nil }
        return PackageSite(host: Self.siteHost(of: id), root: presentation.sourcesDirectory)
    }

    /// Waits for the first of: the content closing, a crash, the browser exiting, the timeout, Ctrl-C.
    private func waitForEnd(of bridge: PageBridge, browser: Browser) async -> PageBridge.Outcome {
        let watchdogs = [
            Task { bridge.end(.crashed("the browser exited: \(await browser.waitUntilClosed())")) },
            Task {
                switch limit {
                case .timeout(let timeout):
                    try await Task.sleep(for: timeout)
                    bridge.end(.timedOut)
                case .duration(let duration):
                    try await Task.sleep(for: duration)
                    bridge.end(.elapsed)
                case nil:
                    return
                }
            },
        ]
        defer { for watchdog in watchdogs { watchdog.cancel() } }
        return await withTaskCancellationHandler {
            await bridge.waitForOutcome()
        } onCancel: {
            bridge.end(.interrupted)
        }
    }

    /// Prints an event the host emitted: every one with `--json`, else the ones a person wants to see.
    private func observe(_ event: JSONValue) {
        if printsJSON {
            output.writeLine(event.jsonString)
        } else if let line = PlayNarration.line(forEvent: event) {
            output.writeLine(line.rendered)
        }
    }

    /// Prints a page issue, as JSON with `--json`, else as one escaped line.
    private func report(_ issue: PageIssue) {
        if printsJSON {
            output.writeLine(issue.json.jsonString)
        } else if let line = PlayNarration.line(for: issue) {
            output.writeLine(line.rendered)
        }
    }
}
