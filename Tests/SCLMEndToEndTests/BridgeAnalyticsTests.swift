import Foundation
import SCLMCore
import SCLMTestSupport
import Testing

/// Sessions recorded by a real `sclm bridge` run, published by `sclm events flush` to the dev-server:
/// a completed session with its slide views and custom events, never a test session, an unfinished one
/// only after it completes.
@Suite(.tags(.large), .timeLimit(.minutes(2))) struct BridgeAnalyticsTests {
    let server: DevServer

    init() throws { server = try DevServer(["--quiet"]) }

    func flush(_ bridge: BridgeSession) async throws -> [String: Any] {
        let result = try await ProcessRunner.sclm(
            ["events", "flush", "--json"], home: bridge.home.root,
            environment: server.iotEnvironment.merging(["TZ": "UTC"]) { _, new in new })
        try #require(result.status == 0, "\(result)")
        return try #require(try result.json() as? [String: Any])
    }

    /// The ids of a session's slide views and custom events, from the home's database.
    func rowIds(of sessionId: String, in bridge: BridgeSession) throws -> Set<String> {
        let json = try bridge.sql(
            "SELECT id FROM session_actions WHERE sessionId = '\(sessionId)' UNION ALL "
                + "SELECT id FROM custom_events WHERE sessionId = '\(sessionId)'")
        let rows = try #require(try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [[String]])
        return Set(rows.compactMap(\.first))
    }

    func sessionId(of bridge: BridgeSession) throws -> String {
        try #require((bridge.opened["Data"] as? [String: Any])?["sessionId"] as? String)
    }

    /// Sends `commands` to the running bridge (each must succeed), ends the run, returns its session id.
    func run(_ bridge: BridgeSession, _ commands: [(String, [String: Any])]) async throws -> String {
        let id = try sessionId(of: bridge)
        for (command, data) in commands {
            #expect(await bridge.call(command, data)?["ErrorCode"] as? Int == 200, "\(command)")
        }
        #expect(await bridge.process.finish() == 0)
        return id
    }

    @Test func bridgeSessionsReachStoryIoTOnlyWhenCompleted() async throws {
        let bridge = try await BridgeSession(login: true)
        let completed = try await run(
            bridge,
            [
                ("go", ["slideName": "slide1.html"]), ("setCustomEvent", ["key": "brand", "value": "cardiora"]),
                ("go", ["slideName": "slide2.html"]), ("closePresentation", ["mode": 1]),
            ])
        try await bridge.restart()
        let test = try await run(
            bridge,
            [
                ("setCustomEvent", ["key": "draft", "value": "1"]), ("go", ["slideName": "slide1.html"]),
                ("closePresentation", ["mode": 2]),
            ])
        try await bridge.restart()
        let unfinished = try await run(bridge, [("go", ["slideName": "slide2.html"])])
        #expect(Set([completed, test, unfinished]).count == 3)

        let first = try await flush(bridge)
        let completedRows = try rowIds(of: completed, in: bridge)
        #expect(completedRows.count == 4)  // index.html, slide1.html, slide2.html and the custom event
        #expect(first["published"] as? Int == 1 + completedRows.count)
        var received = try await server.iotReceived()
        #expect(Set(received.byEntity.keys) == completedRows.union([completed]))
        #expect(received.messages.count == received.byEntity.count && received.duplicates == 0)

        let session = try #require(received.byEntity[completed])
        #expect(session.headers["s-m-eid"] == "story.content.session" && session.headers["s-m-uid"] == "user-42")
        #expect(session.body["state"] == 1 && session.body["presentationId"] == "10")
        #expect(session.body["slidesCount"] == 3 && session.body["userId"] == "user-42")
        let slides = received.messages.filter { $0.headers["s-m-eid"] == "story.content.slide" }
        #expect(
            slides.compactMap { $0.body["slideName"]?.stringValue }.sorted() == [
                "index.html", "slide1.html", "slide2.html",
            ])
        #expect(
            slides.allSatisfy { $0.headers["s-m-ct"] == completed && $0.body["sessionId"]?.stringValue == completed })
        let event = try #require(received.messages.first { $0.headers["s-m-eid"] == "story.content.customevent" })
        #expect(event.body["key"] == "brand" && event.body["value"] == "cardiora")
        for message in received.messages {
            #expect(message.headers["s-m-lt"] == message.body["created"]?.stringValue)
            #expect(message.headers["s-m-tz"] == message.body["timeZone"]?.intValue.map(String.init))
        }

        try await bridge.restart()
        #expect(try await run(bridge, [("closePresentation", ["mode": 1])]) == unfinished)
        let second = try await flush(bridge)
        let unfinishedRows = try rowIds(of: unfinished, in: bridge)
        #expect(second["published"] as? Int == 1 + unfinishedRows.count)
        received = try await server.iotReceived()
        let testRows = try rowIds(of: test, in: bridge).union([test])
        #expect(Set(received.byEntity.keys) == completedRows.union(unfinishedRows).union([completed, unfinished]))
        #expect(testRows.isDisjoint(with: received.byEntity.keys))
        #expect(
            try bridge.sql("SELECT count(*) FROM session_actions WHERE synchronized = 0 AND sessionId != '\(test)'")
                == "[[0]]")
    }
}

extension BridgeAnalyticsTests {
    @Test func aLongRunningBridgePublishesCompletedSessionsInTheBackground() async throws {
        let environment = server.iotEnvironment.merging(["SCLM_BRIDGE_FLUSH_INTERVAL": "1"]) { _, new in new }
        let bridge = try await BridgeSession(environment: environment, login: true)
        let first = try sessionId(of: bridge)
        #expect(await bridge.call("go", ["slideName": "slide1.html"])?["ErrorCode"] as? Int == 200)
        #expect(await bridge.call("closePresentation", ["mode": 1])?["ErrorCode"] as? Int == 200)
        #expect(await bridge.call("open", ["presId": 10, "slideName": "index.html"])?["ErrorCode"] as? Int == 200)

        var received = try await server.iotReceived()
        let deadline = Date().addingTimeInterval(HangGuard.seconds)
        while received.byEntity[first] == nil && Date() < deadline {
            try await Task.sleep(for: .milliseconds(100))
            received = try await server.iotReceived()
        }
        #expect(received.byEntity[first]?.headers["s-m-eid"] == "story.content.session")
        #expect(received.messages.allSatisfy { $0.headers["s-m-ct"] == first })
        #expect(await bridge.call("bridge.ping")?["ErrorCode"] as? Int == 200)
        #expect(await bridge.process.finish() == 0)
        for line in bridge.process.allLines {
            let message = try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any]
            #expect(message?["GUID"] != nil || message?["Event"] != nil, "\(line)")
        }
    }
}
