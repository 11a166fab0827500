import Foundation
import SCLMCore
import Synchronization

/// One tab of a ``Browser``, attached in flatten mode: its DevTools calls carry its `sessionId`.
package final class BrowserPage: Sendable {
    /// The tab's target id.
    package let targetId: String
    /// The DevTools session of the tab.
    package let sessionId: String
    /// The size the page is laid out and captured at.
    package let viewport: BrowserOptions.Viewport
    let connection: DevToolsConnection
    /// What attaches to the iframes and workers the tab creates (`nil` for such a target itself).
    let targets: TargetAttacher?
    /// The browser's one tab at a time brought to the front for its picture (`nil` for an iframe or worker,
    /// which are never pictured).
    let pictures: AsyncSemaphore?
    /// Whether a ``PageBridge`` has wired the tab (its bindings, script and interception stay for the next).
    private let isWired = Atomic(false)

    init(
        connection: DevToolsConnection, targetId: String, sessionId: String, viewport: BrowserOptions.Viewport,
        targets: TargetAttacher? = nil, pictures: AsyncSemaphore? = nil
    ) {
        self.connection = connection
        self.targetId = targetId
        self.sessionId = sessionId
        self.viewport = viewport
        self.targets = targets
        self.pictures = pictures
    }

    /// `true` the first time only: the tab is being wired for a bridge.
    func startWiring() -> Bool {
        !isWired.exchange(true, ordering: .acquiringAndReleasing)
    }

    /// Sends `method` in this tab's session and returns its result, failing after `deadline` (30 s when `nil`).
    ///
    /// - Throws: ``BrowserError`` (`.timedOut` after `deadline`), `CancellationError`.
    @discardableResult
    package func call(
        _ method: String, _ params: JSONValue = [:], deadline: Duration? = nil
    ) async throws -> JSONValue {
        try await connection.call(method, params, session: sessionId, deadline: deadline)
    }

    /// Sends every call of `calls` (method and parameters) at once and waits for all their answers: one
    /// round trip through a busy browser instead of one each. They are for setting up, so their order does
    /// not matter.
    ///
    /// - Throws: the first failure (``BrowserError``), `CancellationError`.
    package func callAll(_ calls: [(String, JSONValue)]) async throws {
        try await withThrowingTaskGroup(of: Void.self) { group in
            for (method, params) in calls { group.addTask { try await self.call(method, params) } }
            try await group.waitForAll()
        }
    }

    /// Routes this tab's events to `handler` (on the DevTools reader thread; it must not block).
    package func onEvent(_ handler: @escaping @Sendable (_ method: String, _ params: JSONValue) -> Void) {
        connection.subscribe(session: sessionId, handler)
    }

    /// Routes the events of the tab's out-of-process iframes and workers to `handler`, with the target
    /// they came from (answer its requests there); without a handler their requests are refused.
    package func onSecondaryEvent(
        _ handler: @escaping @Sendable (_ method: String, _ params: JSONValue, _ target: BrowserPage) -> Void
    ) {
        targets?.handle(secondaryOf: sessionId, handler)
    }

    /// Starts loading `url` in the tab.
    ///
    /// - Throws: ``BrowserError`` when the browser refuses the navigation.
    package func navigate(to url: String) async throws {
        let result = try await call("Page.navigate", ["url": .string(url)])
        if let failure = result["errorText"]?.stringValue, !failure.isEmpty, failure != "net::ERR_ABORTED" {
            throw BrowserError(.protocolError, "cannot load \(url): \(failure)")
        }
    }

    /// Sends `method` in this tab's session without waiting; it keeps its order with other calls.
    package func send(_ method: String, _ params: JSONValue = [:]) {
        connection.send(method, params, session: sessionId)
    }

    /// Evaluates `expression` in the page's main world without waiting for a result.
    package func evaluateLater(_ expression: String) {
        send("Runtime.evaluate", ["expression": .string(expression)])
    }

    /// The call that fixes the layout size to the viewport (headless windows otherwise follow `--window-size`).
    package var viewportCall: (String, JSONValue) {
        (
            "Emulation.setDeviceMetricsOverride",
            [
                "width": .int(Int64(viewport.width)), "height": .int(Int64(viewport.height)), "deviceScaleFactor": 1,
                "mobile": false,
            ]
        )
    }

    /// A PNG of the viewport; a renderer that does not paint within `deadline` (a stuck script) fails it.
    ///
    /// Headless Chromium draws all its tabs in one window: a tab that loaded its next slide behind the others
    /// was not drawn again, and its capture waited out its deadline. So the tab is brought to the front
    /// first, one tab at a time in the browser; the captures themselves run side by side. Should one still
    /// get no picture within ``quickCapture``, it is taken again with the tab kept in front until it has it
    /// (`deadline` counting from then): how long a picture takes depends on the machine's load, never whether
    /// it is taken.
    ///
    /// - Throws: ``BrowserError`` (`.timedOut`), `CancellationError`.
    package func screenshot(deadline: Duration) async throws -> Data {
        guard let pictures else { return try await capture(deadline: deadline) }
        do {
            _ = try await pictures.withPermit { try await call("Page.bringToFront", deadline: deadline) }
            return try await capture(deadline: min(deadline, Self.quickCapture))
        } catch let error as BrowserError where error.code == .timedOut {
            return try await pictures.withPermit {
                try await call("Page.bringToFront", deadline: deadline)
                return try await capture(deadline: deadline)
            }
        }
    }

    /// How long a capture may take before it is taken again with its tab kept in front.
    static let quickCapture: Duration = .seconds(2)

    private func capture(deadline: Duration) async throws -> Data {
        let result = try await call(
            "Page.captureScreenshot", ["format": "png", "fromSurface": true], deadline: deadline)
        guard let text = result["data"]?.stringValue, let data = Data(base64Encoded: text) else {
            throw BrowserError(.protocolError, "Page.captureScreenshot returned no image")
        }
        return data
    }

    /// Whether the page's main thread answers a trivial `Runtime.evaluate` within `deadline`: `false` when
    /// it does not (a script that never yields, `while (true) {}`, keeps every evaluation waiting).
    ///
    /// - Throws: ``BrowserError`` other than a timeout (the page crashed or was closed), `CancellationError`.
    package func isResponsive(within deadline: Duration) async throws -> Bool {
        do {
            try await call("Runtime.evaluate", ["expression": "0"], deadline: deadline)
            return true
        } catch let error as BrowserError where error.code == .timedOut {
            return false
        }
    }

    /// Closes the tab and stops routing its events. A tab whose renderer will not let go (a stuck script
    /// in a `beforeunload` handler, say) is crashed (`Page.crash`) and closed again.
    package func close() async {
        connection.unsubscribe(session: sessionId)
        targets?.handle(secondaryOf: sessionId, nil)
        let target: JSONValue = ["targetId": .string(targetId)]
        if (try? await connection.call("Target.closeTarget", target, deadline: .seconds(5))) != nil { return }
        connection.send("Page.crash", session: sessionId)
        _ = try? await connection.call("Target.closeTarget", target, deadline: .seconds(5))
    }
}
