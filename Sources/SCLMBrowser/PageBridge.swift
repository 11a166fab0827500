import Foundation
import SCLMBridge
import SCLMCore
import Synchronization

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Connects one browser page to a ``BridgeServer``: the page's StoryCLM messages in, answers and events
/// back, the package served from a ``PackageSite``.
///
/// The server is the one `sclm bridge` runs, fed in-process — no pipes, no threads: each message the
/// page's transport hands the binding becomes one input line pushed to a ``FrameInlet`` (and dispatched
/// on the DevTools reader thread that heard it), and each line the server writes (to ``output``, which
/// the presentation host shares) goes through a ``LineQueue`` to one delivery task, which hands it to the
/// page as `StoryCLMBridge.StoryCLMHandler(<line>)`, in order. A `slideChanged` event loads the slide; `presentationClosed` ends the run. With
/// ``Mode-swift.enum/render`` `go` and `open` are answered as success and reported, not followed.
package final class PageBridge: Sendable {
    /// Whether navigation requests are followed.
    package enum Mode: Sendable {
        /// A player: `go` and `open` run in the host, and the page follows `slideChanged`.
        case play
        /// A render: `go` and `open` are answered 200 and reported as ``PageIssue/navigation(command:data:)``.
        case render
    }

    /// How a run ended.
    package enum Outcome: Sendable, Equatable {
        /// The content closed the presentation.
        case closed
        /// The page's renderer or the browser died.
        case crashed(String)
        /// The host gave up (an uncaught page error it was told to fail on, say).
        case failed(String)
        /// The host's time limit passed.
        case timedOut
        /// The host's play time passed (a smoke test that ends well).
        case elapsed
        /// The host was interrupted (Ctrl-C).
        case interrupted
    }

    /// Where the host and modules write; its lines go to the page.
    package let output: BridgeOutput
    /// The page.
    package let page: BrowserPage
    let mode: Mode
    let failsOnError: Bool
    let answersDialogs: Bool
    private let site = Mutex(PackageSite(root: "/nonexistent"))
    private let reportIssue: @Sendable (PageIssue) -> Void
    private let budget = Mutex(MessageBudget())
    let observe: @Sendable (JSONValue) -> Void
    let siteOfPresentation: @Sendable (Int64) async -> PackageSite?
    private let inlet = FrameInlet()
    private let lines = LineQueue()
    private let commands = Mutex<[String: String]>([:])
    /// When the page last loaded, made a request or bridge call, and started a frame or worker.
    private let activity = Mutex(PageActivity.loading())
    private let outcome = Latch<Outcome>()
    /// The slide the host shows, and the package path the page's main frame is at.
    private let location = Mutex<(hostSlide: String?, pageSlide: String?)>((nil, nil))
    /// How many documents of the page's main frame this bridge has seen start.
    private let documents = Mutex(0)

    /// Creates a bridge for `page`; call ``attach(serving:)`` and then ``serve(_:)``.
    ///
    /// - Parameters:
    ///   - page: the page to host the content in.
    ///   - mode: whether navigation is followed (play) or only noted (render).
    ///   - failsOnError: an uncaught page error or a failed load (``PageIssue/failure``) ends the run as
    ///     ``Outcome/failed(_:)``.
    ///   - answersDialogs: `alert`, `confirm`, `prompt` and `beforeunload` are answered at once (OK, or the
    ///     prompt's default), as nobody is at the screen; otherwise they wait for the person.
    ///   - report: hears of what the page did wrong (and, in a render, its navigation requests), within a
    ///     ``MessageBudget`` per slide.
    ///   - observe: hears every event line the host emits.
    ///   - siteOfPresentation: the package of another presentation that content opens (`open`), which
    ///     the page then serves; `nil` keeps the current one.
    package init(
        page: BrowserPage, mode: Mode, failsOnError: Bool = false, answersDialogs: Bool = true,
        report: @escaping @Sendable (PageIssue) -> Void,
        observe: @escaping @Sendable (JSONValue) -> Void = { _ in },
        siteOfPresentation: @escaping @Sendable (Int64) async -> PackageSite? = { _ in nil }
    ) {
        self.page = page
        self.mode = mode
        self.failsOnError = failsOnError
        self.answersDialogs = answersDialogs
        reportIssue = report
        self.observe = observe
        self.siteOfPresentation = siteOfPresentation
        output = BridgeOutput(lines: lines)
    }

    /// Wires the page to serve `site`: the binding, the transport script, request interception, error reporting.
    /// A page an earlier bridge wired (a render reuses pages) keeps all that and gets only the events.
    ///
    /// - Throws: ``BrowserError``.
    package func attach(serving site: PackageSite) async throws {
        self.site.withLock { $0 = site }
        page.onEvent { [weak self] method, params in self?.handle(method, params) }
        page.onSecondaryEvent { [weak self] method, params, target in self?.handle(method, params, of: target) }
        guard page.startWiring() else { return }
        var calls: [(String, JSONValue)] = [
            ("Runtime.addBinding", ["name": .string(PageScript.binding)]),
            ("Runtime.addBinding", ["name": .string(PageScript.errorBinding)]),
            ("Page.addScriptToEvaluateOnNewDocument", ["source": .string(PageScript.source)]),
            ("Fetch.enable", ["patterns": [["urlPattern": "*"]]]), ("Network.enable", PageErrors.networkEnable),
            ("Runtime.enable", [:]), ("Page.enable", [:]), ("Inspector.enable", [:]),
        ]
        if mode == .render { calls.append(page.viewportCall) }
        try await page.callAll(calls)
    }

    /// Serves the page with `server` until ``finish()`` (or the page's run ends and ``finish()`` is called):
    /// the server takes the page's messages, and its lines are delivered to the page. Returns once the
    /// server has drained and every line it wrote was delivered (or a second passed).
    package func serve(_ server: BridgeServer) async {
        await withDiscardingTaskGroup { group in
            group.addTask { [self] in
                while let line = await lines.next() { await deliver(line) }
            }
            await server.run(from: inlet)
            await output.close(timeout: .seconds(1))
        }
    }

    /// Ends the input: the server finishes running work (as `sclm bridge` does on EOF) and ``serve(_:)`` returns;
    /// what the slide said beyond its budget is reported.
    package func finish() {
        closeSlideBudget()
        inlet.stop()
    }

    /// Reports `issue` unless the slide's budget is spent.
    func report(_ issue: PageIssue) {
        if budget.withLock({ $0.admit(issue) }) { reportIssue(issue) }
        if failsOnError, let failure = issue.failure { outcome.fire(.failed(failure)) }
    }

    /// Reports what the slide said beyond its budget, and starts a fresh budget for the next slide.
    private func closeSlideBudget() {
        if let note = budget.withLock({ $0.close() }) { reportIssue(note) }
    }

    /// Waits for the content to close the presentation or for the page to crash.
    package func waitForOutcome() async -> Outcome {
        await outcome.wait()
    }

    /// How the run ended, if it has.
    package var outcomeSoFar: Outcome? { outcome.value }

    /// Ends the run with `outcome` (the browser died, a time limit passed) unless it already ended.
    package func end(_ outcome: Outcome) {
        self.outcome.fire(outcome)
    }

    /// When the page last loaded, made a request or bridge call, and started a frame or worker.
    package var currentActivity: PageActivity { activity.withLock { $0 } }

    // MARK: - Page events (reader thread)

    private func handle(_ method: String, _ params: JSONValue) {
        guard isOwn(method, params) else { return }
        switch method {
        case "Fetch.requestPaused":
            touch()
            site.withLock { $0 }.answer(params, on: page) { [weak self] issue in self?.report(issue) }
        case "Runtime.bindingCalled" where params["name"]?.stringValue == PageScript.binding:
            touch()
            if let payload = params["payload"]?.stringValue { receive(payload) }
        case DevToolsConnection.oversizedEvent:
            if let issue = PageErrors.oversized(params) { report(issue) }
            // A request too large to read (a huge POST body) still needs an answer, or the page waits forever.
            if params["method"] == "Fetch.requestPaused", let id = PageErrors.requestId(inHead: params) {
                page.send("Fetch.failRequest", ["requestId": .string(id), "errorReason": "Failed"])
            }
        case "Page.javascriptDialogOpening":
            if answersDialogs {
                let prompt = params["defaultPrompt"]?.stringValue ?? ""
                page.send("Page.handleJavaScriptDialog", ["accept": true, "promptText": .string(prompt)])
            }
            report(PageErrors.dialog(params, answered: answersDialogs))
        case "Page.loadEventFired":
            let now = ContinuousClock.now
            activity.withLock { $0 = PageActivity(loaded: now, lastRequest: now, lastStart: now) }
        case "Page.frameStartedLoading" where params["frameId"]?.stringValue == page.targetId:
            activity.withLock { $0 = .loading() }
        case "Page.frameNavigated" where params["frame"]?["parentId"] == nil:
            if let url = params["frame"]?["url"]?.stringValue { pageNavigated(to: url) }
        case "Inspector.targetCrashed":
            report(.crashed(reason: "the page's renderer crashed"))
            outcome.fire(.crashed("the page's renderer crashed"))
        default:
            reportError(method, params)
        }
    }

    /// Notes a new document of the page's main frame; `false` for what this bridge must not hear: the
    /// errors a page kept as its earlier document left (``PageScript``), told by the first document this
    /// bridge sees. On a page reused for a later slide they are the earlier slide's (whose result is done); a
    /// slide's own, as it navigates itself away, are told by a later document.
    private func isOwn(_ method: String, _ params: JSONValue) -> Bool {
        switch method {
        case "Runtime.executionContextCreated":
            let context = params["context"]?["auxData"]
            if context?["frameId"]?.stringValue == page.targetId, context?["isDefault"]?.boolValue == true {
                documents.withLock { $0 += 1 }
            }
            return true
        case "Runtime.bindingCalled" where params["name"]?.stringValue == PageScript.errorBinding:
            return documents.withLock { $0 } > 1 || !PageErrors.isKept(params["payload"]?.stringValue ?? "")
        default:
            return true
        }
    }

    /// One event of an out-of-process iframe or a worker of the page: its requests are answered as the
    /// page's are, its errors (thrown, swallowed, `console.error`) reported.
    private func handle(_ method: String, _ params: JSONValue, of target: BrowserPage) {
        switch method {
        case "Fetch.requestPaused":
            touch()
            site.withLock { $0 }.answer(params, on: target, report: report)
        default:
            reportError(method, params)
        }
    }

    /// Notes that a frame or worker of the page started (its script context was made, or a frame finished
    /// loading): the render's late window runs from the last such start.
    private func noteStart() {
        activity.withLock { $0.lastStart = .now }
    }

    /// Reports the page error that an event of the page or of one of its iframes and workers tells of, if
    /// any: thrown, swallowed (``PageScript/errorBinding``) or `console.error`; or a connection that
    /// request interception never sees (a WebSocket, WebTransport). Notes the start of a frame or worker.
    private func reportError(_ method: String, _ params: JSONValue) {
        switch method {
        case "Runtime.executionContextCreated", "Page.frameStoppedLoading":
            noteStart()
        case "Network.webSocketCreated", "Network.webTransportCreated":
            if let url = params["url"]?.stringValue { report(.remoteRequest(url: url)) }
        case "Runtime.exceptionThrown":
            report(PageErrors.uncaught(params))
        case "Runtime.bindingCalled" where params["name"]?.stringValue == PageScript.errorBinding:
            if let issue = params["payload"]?.stringValue.flatMap(PageErrors.reported) { report(issue) }
        case "Runtime.consoleAPICalled" where params["type"]?.stringValue == "error":
            report(PageErrors.console(params))
        default:
            break
        }
    }

    private func touch() {
        activity.withLock { $0.lastRequest = .now }
    }

    /// One message or batch from the page's transport: noted, filtered (render), written to the server.
    private func receive(_ payload: String) {
        guard let value = try? JSONParser.parse(Array(payload.utf8)) else { return write(payload) }
        let items = value.arrayValue ?? [value]
        var forwarded: [JSONValue] = []
        for item in items {
            let command = Self.member(item, "command")?.stringValue.map(Envelope.trimmedCommand) ?? ""
            let guid = Self.member(item, "guid")?.stringValue
            if mode == .render, command == "go" || command == "open" {
                report(.navigation(command: command, data: Self.member(item, "data") ?? [:]))
                if let guid {
                    var line: [UInt8] = []
                    BridgeResponse(guid: guid, reply: .ok()).write(to: &line)
                    page.evaluateLater(PageScript.deliver(String(decoding: line, as: UTF8.self)))
                }
                continue
            }
            if let guid { commands.withLock { $0[guid] = command } }
            forwarded.append(item)
        }
        guard !forwarded.isEmpty else { return }
        write(value.arrayValue == nil ? forwarded[0].jsonString : JSONValue.array(forwarded).jsonString)
    }

    /// Hands one message to the server as one line (line breaks inside it become spaces).
    private func write(_ line: String) {
        inlet.push(Array(line.utf8).map { $0 == 0x0A || $0 == 0x0D ? 0x20 : $0 })
    }

    /// The page's main frame loaded `url`. A slide the host does not show (a plain link, or content
    /// setting `location`, as storyCLMNavigation.js does) is told to the host as `go`, as a StoryContent
    /// app does, so the session records it; a render only notes it.
    private func pageNavigated(to url: String) {
        guard let path = site.withLock({ $0 }).packagePath(of: url), path.lowercased().hasSuffix(".html") else {
            return
        }
        let isNew = location.withLock { location in
            location.pageSlide = path
            return location.hostSlide != nil && location.hostSlide != path
        }
        guard isNew else { return }
        let data: JSONValue = ["slideName": .string(path), "data": [:]]
        if mode == .render {
            report(.navigation(command: "go", data: data))
        } else {
            write(JSONValue.object(["Command": "go", "Data": data]).jsonString)
        }
    }

    /// A member of a message, matched case-insensitively (as the bridge does).
    private static func member(_ item: JSONValue, _ key: String) -> JSONValue? {
        item.objectValue?.first { $0.key.lowercased() == key }?.value
    }

    // MARK: - Server lines

    /// Delivers one server line to the page and acts on events.
    private func deliver(_ bytes: [UInt8]) async {
        let line = String(decoding: bytes, as: UTF8.self)
        let value = try? JSONParser.parse(bytes)
        if let event = value?["Event"]?.stringValue {
            observe(value ?? .null)
            page.evaluateLater(PageScript.deliver(line))
            await act(on: event, data: value?["Data"] ?? .null)
            return
        }
        if let guid = value?["GUID"]?.stringValue, let code = value?["ErrorCode"]?.intValue {
            let command = commands.withLock { $0.removeValue(forKey: guid) }
            if code >= 400 {
                report(
                    .bridgeError(
                        command: command ?? "?", code: Int(code), message: value?["ErrorMessage"]?.stringValue ?? ""))
            }
        }
        page.evaluateLater(PageScript.deliver(line))
    }

    private func act(on event: String, data: JSONValue) async {
        switch BridgeEventName(rawValue: event) {
        case .slideChanged:
            guard let slide = data["slide"]?.stringValue else { return }
            let isThere = location.withLock { location in
                location.hostSlide = slide
                return location.pageSlide == slide
            }
            if !isThere {
                closeSlideBudget()
                activity.withLock { $0 = .loading() }
                page.send("Page.navigate", ["url": .string(site.withLock { $0 }.url(of: slide))])
            }
        case .presentationOpened:
            if let id = data["presId"]?.intValue, let next = await siteOfPresentation(id) {
                site.withLock { $0 = next }
                // The page still shows the old package: whatever slide comes next must be loaded.
                location.withLock { $0.pageSlide = nil }
            }
        case .presentationClosed where data["mode"]?.isNull == false:
            // Without a mode the host only left a presentation for another one (`open`).
            outcome.fire(.closed)
        default:
            break
        }
    }
}
