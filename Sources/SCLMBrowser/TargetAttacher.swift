import Foundation
import SCLMCore
import Synchronization

/// Attaches to every target the browser creates, before it runs, the way Playwright does: so request
/// interception and error reporting cover prerenders, popups, out-of-process iframes and workers, not
/// only the tabs sclm opened.
///
/// ``start()`` turns on `Target.setAutoAttach` (`flatten`, `waitForDebuggerOnStart`) for the browser; each
/// `Target.attachedToTarget`, from the browser or from a session (whose iframes and workers attach to
/// it), gets the same auto-attach, `Fetch.enable` for every URL and `Runtime.enable`, and only then
/// `Runtime.runIfWaitingForDebugger`. The commands of one session run in order, so nothing it does
/// escapes interception.
///
/// - A tab that opens with no opener is one of sclm's (``newPage()``): it waits until ``claim(_:)``
///   hands its session to the page's owner.
/// - An iframe or worker belongs to the tab it came from: its events go to the handler that tab's owner
///   registered (``handle(secondaryOf:_:)``), which serves the package to it; until then, and for
///   targets of no known tab, every request is refused.
/// - A popup (`window.open`) or a prerendered page gets every request refused: a tablet's WebView has
///   neither, and a prerendered slide would lack the bridge.
final class TargetAttacher: Sendable {
    /// Receives one event of a secondary target (an iframe or worker of a page) with that target.
    typealias SecondaryHandler = @Sendable (_ method: String, _ params: JSONValue, _ target: BrowserPage) -> Void

    /// One attached target.
    private struct Attached {
        var targetId: String
        /// The session of the tab it belongs to (`nil` for a tab of sclm's, or when unknown).
        var root: String?
        /// Whether its requests may be served (iframes and workers), else all are refused.
        var isServed: Bool
    }

    private struct State {
        var sessions: [String: Attached] = [:]
        var sessionOfTarget: [String: String] = [:]
        var waiting: [String: CheckedContinuation<String?, Never>] = [:]
        var handlers: [String: SecondaryHandler] = [:]
        var isClosed = false
    }

    private let connection: DevToolsConnection
    private let viewport: BrowserOptions.Viewport
    private let state = Mutex(State())

    static let autoAttach: JSONValue = ["autoAttach": true, "flatten": true, "waitForDebuggerOnStart": true]

    /// Creates an attacher for `connection`; `viewport` is what the secondary targets' pages report.
    init(connection: DevToolsConnection, viewport: BrowserOptions.Viewport) {
        self.connection = connection
        self.viewport = viewport
    }

    /// Starts attaching to every new target.
    ///
    /// - Throws: ``BrowserError`` when the browser refuses.
    func start() async throws {
        connection.observe("Target.attachedToTarget") { [self] session, params in attached(params, from: session) }
        connection.observe("Target.detachedFromTarget") { [self] _, params in
            if let session = params["sessionId"]?.stringValue { detached(session) }
        }
        _ = try await connection.call("Target.setAutoAttach", Self.autoAttach)
    }

    /// The session of sclm's own new tab `targetId`, once attached (`nil` when the browser went away).
    func claim(_ targetId: String) async -> String? {
        await withCheckedContinuation { continuation in
            let found = state.withLock { state -> String?? in
                if let session = state.sessionOfTarget[targetId] { return .some(session) }
                if state.isClosed { return .some(nil) }
                state.waiting[targetId] = continuation
                return nil
            }
            if let found { continuation.resume(returning: found) }
        }
    }

    /// Routes the events of the iframes and workers of the tab with session `root` to `handler`, or
    /// stops routing them (`nil`).
    func handle(secondaryOf root: String, _ handler: SecondaryHandler?) {
        state.withLock { $0.handlers[root] = handler }
    }

    /// The browser went away: every ``claim(_:)`` returns `nil`.
    func close() {
        let waiting = state.withLock { state -> [CheckedContinuation<String?, Never>] in
            state.isClosed = true
            defer { state.waiting = [:] }
            return Array(state.waiting.values)
        }
        for continuation in waiting { continuation.resume(returning: nil) }
    }

    // MARK: - Events (reader thread)

    private func attached(_ params: JSONValue, from parent: String) {
        guard let session = params["sessionId"]?.stringValue, let info = params["targetInfo"],
            let targetId = info["targetId"]?.stringValue
        else { return }
        let isPage = info["type"]?.stringValue == "page"
        let opener = info["openerId"]?.stringValue
        let isOwnTab = parent.isEmpty && isPage && opener == nil && info["subtype"]?.stringValue == nil
        let waiter = state.withLock { state -> CheckedContinuation<String?, Never>? in
            let parentSession = parent.isEmpty ? opener.flatMap { state.sessionOfTarget[$0] } : parent
            let root = parentSession.map { state.sessions[$0]?.root ?? $0 }
            state.sessions[session] = Attached(targetId: targetId, root: root, isServed: !isPage)
            state.sessionOfTarget[targetId] = session
            return isOwnTab ? state.waiting.removeValue(forKey: targetId) : nil
        }
        connection.subscribe(session: session) { [self] method, params in route(method, params, session: session) }
        connection.send("Target.setAutoAttach", Self.autoAttach, session: session)
        connection.send("Fetch.enable", ["patterns": [["urlPattern": "*"]]], session: session)
        connection.send("Runtime.enable", session: session)
        if info["type"]?.stringValue != "page" {
            connection.send("Network.enable", PageErrors.networkEnable, session: session)
        }
        for (method, params) in Self.errorReporting(forTargetOfType: info["type"]?.stringValue) {
            connection.send(method, params, session: session)
        }
        if isOwnTab {
            waiter?.resume(returning: session)
        } else {
            connection.send("Runtime.runIfWaitingForDebugger", session: session)
        }
    }

    /// What a secondary target is given before it runs, so that the errors its own handlers swallow are
    /// reported as the page's are (``PageScript``): an out-of-process iframe gets the error binding and
    /// the frame script for every document; a worker the binding and the worker script, evaluated before
    /// its own. A tab of sclm's gets them from its ``PageBridge``.
    static func errorReporting(forTargetOfType type: String?) -> [(method: String, params: JSONValue)] {
        let binding: (method: String, params: JSONValue) = (
            "Runtime.addBinding", ["name": .string(PageScript.errorBinding)]
        )
        switch type {
        case "iframe":
            // Chromium runs scripts on new documents only while the Page domain is on.
            return [
                binding, ("Page.enable", [:]),
                ("Page.addScriptToEvaluateOnNewDocument", ["source": .string(PageScript.frameSource)]),
            ]
        case "worker", "shared_worker":
            return [binding, ("Runtime.evaluate", ["expression": .string(PageScript.workerSource)])]
        default:
            return []
        }
    }

    private func detached(_ session: String) {
        state.withLock { state in
            if let target = state.sessions.removeValue(forKey: session) {
                state.sessionOfTarget.removeValue(forKey: target.targetId)
            }
            state.handlers.removeValue(forKey: session)
        }
        connection.unsubscribe(session: session)
        connection.failCalls(inSession: session, reason: "the page was closed")
    }

    /// One event of a target sclm did not open: to its tab's handler, or (requests) refused.
    private func route(_ method: String, _ params: JSONValue, session: String) {
        let (target, handler) = state.withLock { state -> (Attached?, SecondaryHandler?) in
            let target = state.sessions[session]
            return (target, target.flatMap { $0.isServed ? $0.root : nil }.flatMap { state.handlers[$0] })
        }
        guard let target else { return }
        if let handler {
            handler(
                method, params,
                BrowserPage(connection: connection, targetId: target.targetId, sessionId: session, viewport: viewport))
        } else if method == "Fetch.requestPaused", let requestId = params["requestId"]?.stringValue {
            connection.send(
                "Fetch.failRequest", ["requestId": .string(requestId), "errorReason": "BlockedByClient"],
                session: session)
        }
    }
}
