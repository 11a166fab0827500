import Foundation
import SCLMCore
import SCLMTestSupport
import Testing

/// The storyclm.js 1.x commands through the built `sclm bridge`, sent as the 1.7.x library sends them
/// (`StoryCLMBridge.Invoke(command, data, callback)`), answered with the v1 docs' session shape in sclm's
/// envelope, and scoped as the 2.x session commands: client 2's bridge never reaches client 1's session.
@Suite(.tags(.large), .timeLimit(.minutes(2))) struct BridgeVersion1Tests {
    typealias Clients = BridgeScopeTests.TwoClients

    /// The keys of a session in the v1 docs' `getsessions` answer.
    static let version1Keys: Set<String> = [
        "id", "start", "latitude", "longtitude", "visit", "userName", "address", "confirmed", "offset", "slides", "end",
        "checkIn", "finished", "duration", "presentationId",
    ]

    @Test func getsessionsListsTheClientsSessionsInTheVersion1Shape() async throws {
        let clients = try await Clients()
        let answer = try #require(await clients.call("getsessions"))
        #expect(answer["Status"] as? String == "Success")
        let sessions = try #require(answer["Data"] as? [[String: Any]])
        let own = try #require(sessions.first { $0["id"] as? String == clients.own })
        #expect(Set(own.keys) == Self.version1Keys)
        #expect(own["presentationId"] as? Int == 21)
        #expect(own["finished"] as? Int == 1)
        #expect(own["userName"] as? String == "user-42@example.com")
        #expect(!sessions.contains { $0["id"] as? String == clients.foreign }, "getsessions leaks client 1")
        #expect(await clients.bridge.finish() == 0)
    }

    @Test func getsessionbyidAnswersOwnSessionsAnd404ForAnotherClients() async throws {
        let clients = try await Clients()
        let own = try #require(await clients.call("getsessionbyid", ["id": clients.own])?["Data"] as? [String: Any])
        #expect(own["id"] as? String == clients.own)
        #expect(own["confirmed"] as? Int == 0)
        #expect(await clients.call("getsessionbyid", ["id": clients.foreign])?["ErrorCode"] as? Int == 404)
        #expect(await clients.bridge.finish() == 0)
    }

    @Test func sessionupdateTakesTheSessionObjectItselfAndConfirmsIt() async throws {
        let clients = try await Clients()
        var session = try #require(
            await clients.call("getsessionbyid", ["id": clients.own])?["Data"] as? [String: Any])
        session["confirmed"] = 1
        let updated = try #require(await clients.call("sessionupdate", session)?["Data"] as? [String: Any])
        #expect(updated["confirmed"] as? Int == 1)
        #expect(updated["id"] as? String == clients.own)
        session["duration"] = 99_999
        let refused = await clients.call("sessionupdate", session)
        #expect(refused?["ErrorCode"] as? Int == 400)
        #expect((refused?["ErrorMessage"] as? String)?.contains("cannot change duration") == true)
        let foreign = await clients.call("sessionupdate", ["id": clients.foreign, "confirmed": 1])
        #expect(foreign?["ErrorCode"] as? Int == 404, "sessionupdate reaches client 1")
        #expect(await clients.call("sessionupdate", ["confirmed": 1])?["ErrorCode"] as? Int == 400)
        #expect(await clients.bridge.finish() == 0)
    }

    @Test func deletesessionbyidDeletesOwnSessionsOnly() async throws {
        let clients = try await Clients()
        let foreign = await clients.call("deletesessionbyid", ["id": clients.foreign])
        #expect(foreign?["ErrorCode"] as? Int == 404, "deletesessionbyid reaches client 1")
        let deleted = try #require(
            await clients.call("deletesessionbyid", ["id": clients.own])?["Data"] as? [String: Any])
        #expect(deleted["id"] as? String == clients.own)
        #expect(await clients.call("getsessionbyid", ["id": clients.own])?["ErrorCode"] as? Int == 404)
        let current = try #require(await clients.call("getCurrentSession")?["Data"] as? [String: Any])
        let open = await clients.call("deletesessionbyid", ["id": current["sessionId"] as? String ?? ""])
        #expect(open?["ErrorCode"] as? Int == 409)
        #expect(await clients.bridge.finish() == 0)
    }

    @Test func setPresentationCompleteAndConsolelogAreNotificationsThatWork() async throws {
        let clients = try await Clients()
        // 1.7.x: StoryCLMBridge.Invoke("setPresentationComplete", {}) — no callback, so no GUID.
        clients.bridge.send(json: ["Command": "setPresentationComplete", "Data": [:]])
        clients.bridge.send(json: ["Command": "consolelog", "Data": ["message": "slide 2 ready"]])
        let current = try #require(await clients.call("getCurrentSession")?["Data"] as? [String: Any])
        #expect(current["complete"] as? Bool == true)
        #expect(await clients.bridge.finish() == 0)
        #expect(!clients.bridge.stderr.contains("consolelog"), "consolelog warned: \(clients.bridge.stderr)")
        #expect(!clients.bridge.stderr.contains("setPresentationComplete"))
    }
}
