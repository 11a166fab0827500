import Foundation
import SCLMCore
import SCLMTestSupport
import Testing

@testable import SCLMBrowser

/// What sclm tells the browser about each target it attaches to, against a browser played by the test
/// over two pipes: sclm's own tab waits for its owner, an iframe or worker is intercepted, given the
/// error reporting script and then run, and its requests go to its tab's handler, a popup is intercepted,
/// run, and refused everything.
@Suite(.tags(.medium), .timeLimit(.minutes(1)))
struct TargetAttacherTests {
    /// The browser's side of a ``DevToolsConnection``: events written in, commands read out.
    final class FakeBrowser: Sendable {
        let events: (read: Int32, write: Int32)
        let commands: (read: Int32, write: Int32)
        let connection: DevToolsConnection

        init() throws {
            var first: [Int32] = [0, 0]
            var second: [Int32] = [0, 0]
            try #require(pipe(&first) == 0 && pipe(&second) == 0)
            events = (first[0], first[1])
            commands = (second[0], second[1])
            connection = DevToolsConnection(commands: commands.write)
            _ = ReaderThread.start(name: "fake-browser-reader") { [connection, events] in
                connection.read(events.read) { _ in }
            }
        }

        deinit {
            for fd in [events.write, commands.read, commands.write] { close(fd) }
        }

        /// Writes one message from the browser.
        func emit(_ message: JSONValue) {
            var bytes = JSONWriter.bytes(message)
            bytes.append(0)
            bytes.withUnsafeBytes { _ = FileSystem.writeAll(events.write, $0) }
        }

        /// The next `count` commands sclm sent, as `method@session`.
        func next(_ count: Int) -> [String] {
            (0..<count).map { _ in
                var bytes: [UInt8] = []
                var byte: UInt8 = 0
                while read(commands.read, &byte, 1) == 1, byte != 0 { bytes.append(byte) }
                let command = try? JSONParser.parse(bytes)
                return "\(command?["method"]?.stringValue ?? "?")@\(command?["sessionId"]?.stringValue ?? "")"
            }
        }

        /// A `Target.attachedToTarget` event, from `parent` (nil: the browser).
        func attached(_ session: String, target: String, type: String, opener: String? = nil, parent: String? = nil) {
            var info: [String: JSONValue] = ["targetId": .string(target), "type": .string(type)]
            if let opener { info["openerId"] = .string(opener) }
            var message: [String: JSONValue] = [
                "method": "Target.attachedToTarget",
                "params": ["sessionId": .string(session), "targetInfo": .object(info), "waitingForDebugger": true],
            ]
            if let parent { message["sessionId"] = .string(parent) }
            emit(.object(message))
        }

        /// A paused request in `session`.
        func paused(_ session: String, _ requestId: String) {
            emit(
                [
                    "method": "Fetch.requestPaused", "sessionId": .string(session),
                    "params": ["requestId": .string(requestId), "request": ["url": "http://127.0.0.1:9/x"]],
                ])
        }
    }

    static let setUp = ["Target.setAutoAttach", "Fetch.enable", "Runtime.enable"]
    /// An iframe's or worker's: also the Network domain, for the WebSockets interception never sees.
    static let secondarySetUp = setUp + ["Network.enable"]

    @Test func everyTargetIsInterceptedBeforeItRunsAndOnlyATabsOwnTargetsAreServed() async throws {
        let browser = try FakeBrowser()
        let attacher = TargetAttacher(connection: browser.connection, viewport: .init(width: 100, height: 100))
        async let started: Void = attacher.start()
        #expect(browser.next(1) == ["Target.setAutoAttach@"])
        browser.emit(["id": 1, "result": [:]])
        try await started

        browser.attached("tab", target: "T1", type: "page")
        #expect(browser.next(3) == Self.setUp.map { $0 + "@tab" }, "sclm's tab waits for its owner")
        #expect(await attacher.claim("T1") == "tab")
        attacher.handle(secondaryOf: "tab") { method, _, target in
            if method == "Fetch.requestPaused" { target.send("Fetch.continueRequest") }
        }

        browser.attached("worker", target: "W1", type: "worker", parent: "tab")
        #expect(
            browser.next(7)
                == (Self.secondarySetUp + ["Runtime.addBinding", "Runtime.evaluate", "Runtime.runIfWaitingForDebugger"])
                .map {
                    $0 + "@worker"
                }, "the worker's error reporting is installed before its script runs")
        browser.paused("worker", "r1")
        #expect(browser.next(1) == ["Fetch.continueRequest@worker"], "the tab's handler answers in the worker")

        browser.attached("frame", target: "F1", type: "iframe", parent: "tab")
        let frameSetUp = ["Runtime.addBinding", "Page.enable", "Page.addScriptToEvaluateOnNewDocument"]
        #expect(
            browser.next(8)
                == (Self.secondarySetUp + frameSetUp + ["Runtime.runIfWaitingForDebugger"]).map { $0 + "@frame" },
            "an out-of-process iframe gets the error script for every document before it runs")

        browser.attached("popup", target: "P1", type: "page", opener: "T1")
        #expect(browser.next(4) == (Self.setUp + ["Runtime.runIfWaitingForDebugger"]).map { $0 + "@popup" })
        browser.paused("popup", "r2")
        #expect(browser.next(1) == ["Fetch.failRequest@popup"], "a popup is refused everything")
    }
}
