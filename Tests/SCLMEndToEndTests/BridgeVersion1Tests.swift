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

    /// The v1 docs' example under both of its names (`sessionupdate`, and `sessionconupdate` as the docs
    /// spell it): `{id, visit: 1}` answers the session with only `visit` changed, and `visit` is stored:
    /// `getsessionbyid` and `getsessions` read it, also from the next bridge on the home.
    @Test(arguments: ["sessionupdate", "sessionconupdate"])
    func theDocsExampleChangesVisitAndStoresIt(command: String) async throws {
        let clients = try await Clients()
        var expected = try await Self.session(clients.own, through: clients.bridge)
        expected["visit"] = 1
        let answer = try #require(await clients.call(command, ["id": clients.own, "visit": 1]))
        #expect(answer["ErrorCode"] as? Int == 200, "\(answer)")
        #expect(Self.text(answer["Data"]) == Self.text(expected), "only visit changed")
        #expect(Self.text(try await Self.session(clients.own, through: clients.bridge)) == Self.text(expected))
        let listed = try #require(await clients.call("getsessions")?["Data"] as? [[String: Any]])
        #expect(listed.first { $0["id"] as? String == clients.own }?["visit"] as? Int == 1)
        #expect(await clients.bridge.finish() == 0)
        let next = try BridgeProcess(sclm: ["bridge", "--presentation", "20"], home: clients.home.root)
        #expect(Self.text(try await Self.session(clients.own, through: next)) == Self.text(expected))
        #expect(await next.finish() == 0)
    }

    /// `checkIn` and `confirmed` (a bool or 0/1, and back) change as `visit` does and are stored for the next
    /// bridge; the 2.x `getSessionById` reads `confirmed` as `complete`. A field the v1 session lacks is
    /// ignored.
    @Test func checkInAndConfirmedAreStoredForTheNextBridge() async throws {
        let clients = try await Clients()
        let change: [String: Any] = ["id": clients.own, "visit": 2, "checkIn": 1, "confirmed": true, "colour": "red"]
        let updated = try #require(await clients.call("sessionupdate", change)?["Data"] as? [String: Any])
        #expect(updated["visit"] as? Int == 2 && updated["checkIn"] as? Int == 1 && updated["confirmed"] as? Int == 1)
        #expect(Set(updated.keys) == Self.version1Keys, "colour is ignored")
        #expect(await clients.bridge.finish() == 0)
        let next = try BridgeProcess(sclm: ["bridge", "--presentation", "20"], home: clients.home.root)
        let stored = try await Self.session(clients.own, through: next)
        #expect(stored["visit"] as? Int == 2 && stored["checkIn"] as? Int == 1 && stored["confirmed"] as? Int == 1)
        let details = await BridgeScopeTests.call(next, "getSessionById", ["id": clients.own])
        #expect((details?["Data"] as? [String: Any])?["complete"] as? Bool == true)
        let cleared = await BridgeScopeTests.call(next, "sessionconupdate", ["id": clients.own, "confirmed": 0])
        #expect((cleared?["Data"] as? [String: Any])?["confirmed"] as? Int == 0, "\(String(describing: cleared))")
        #expect(try await Self.session(clients.own, through: next)["confirmed"] as? Int == 0)
        #expect(await next.finish() == 0)
    }

    /// The fields the host records, each changed (the session moved to another of the client's
    /// presentations or to another client's among them), with a `visit` that would be allowed.
    static var hostRecorded: [(field: String, value: Any)] {
        [
            ("presentationId", 20), ("presentationId", 10), ("userName", "someone@example.com"),
            ("start", "2020-01-01T00:00:00.000Z"), ("end", "2020-01-01T00:00:00.000Z"), ("duration", 99_999),
            ("slides", 42), ("finished", 0), ("latitude", "1.00000000"), ("longtitude", "2.00000000"),
            ("address", "elsewhere"), ("offset", 11),
        ]
    }

    /// A host-recorded field is refused by name, alike under both names, and nothing of the update is
    /// stored; an update without a string `id` names `id`.
    @Test func aHostRecordedFieldIsRefusedByNameAndNothingChanges() async throws {
        let clients = try await Clients()
        let before = try await Self.session(clients.own, through: clients.bridge)
        for (field, value) in Self.hostRecorded {
            var update: [String: Any] = ["id": clients.own, "visit": 1]
            update[field] = value
            let answers = try await Self.answers(to: update, from: clients)
            #expect(answers.code == 400, "\(field): \(answers.message)")
            #expect(answers.message.contains("cannot change \(field):"), "\(answers.message)")
            #expect(answers.message.contains("only visit, checkIn and confirmed can change"), "\(answers.message)")
        }
        for update: [String: Any] in [["visit": 1], ["id": 7, "visit": 1], ["id": "", "visit": 1]] {
            let answers = try await Self.answers(to: update, from: clients)
            #expect(answers.code == 400 && answers.message.contains("id"), "\(update): \(answers.message)")
        }
        #expect(Self.text(try await Self.session(clients.own, through: clients.bridge)) == Self.text(before))
        #expect(await clients.bridge.finish() == 0)
    }

    /// Values of the wrong type, each with what the field must be.
    static var mistyped: [(field: String, value: Any, rule: String)] {
        [
            ("visit", "1", "visit must be a whole number"), ("visit", 1.5, "visit must be a whole number"),
            ("visit", -1, "visit must be a whole number"), ("visit", NSNull(), "visit must be a whole number"),
            ("checkIn", true, "checkIn must be a whole number"),
            ("confirmed", 2, "confirmed must be true, false, 0 or 1"),
            ("confirmed", "yes", "confirmed must be true, false, 0 or 1"),
        ]
    }

    /// A changeable field of the wrong type is 400 naming the field and what it must be, alike under both
    /// names, and nothing is stored.
    @Test func aMistypedFieldIsRefusedWithWhatItMustBe() async throws {
        let clients = try await Clients()
        let before = try await Self.session(clients.own, through: clients.bridge)
        for (field, value, rule) in Self.mistyped {
            var update: [String: Any] = ["id": clients.own, "visit": 1]
            update[field] = value
            let answers = try await Self.answers(to: update, from: clients)
            #expect(answers.code == 400 && answers.message.contains(rule), "\(field): \(answers.message)")
        }
        #expect(Self.text(try await Self.session(clients.own, through: clients.bridge)) == Self.text(before))
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

    /// The v1 session `id` as `getsessionbyid` answers it through `bridge`.
    static func session(_ id: String, through bridge: BridgeProcess) async throws -> [String: Any] {
        let answer = await BridgeScopeTests.call(bridge, "getsessionbyid", ["id": id])
        return try #require(answer?["Data"] as? [String: Any], "\(String(describing: answer))")
    }

    /// What `sessionupdate` and `sessionconupdate` answer `update`, which must be the same answer.
    static func answers(to update: [String: Any], from clients: Clients) async throws -> (code: Int?, message: String) {
        var answers: [[String: Any]] = []
        for command in ["sessionupdate", "sessionconupdate"] {
            var answer = try #require(await clients.call(command, update), "\(command) did not answer")
            answer["GUID"] = nil
            answers.append(answer)
        }
        #expect(text(answers[0]) == text(answers[1]), "the two names answer alike")
        return (answers[0]["ErrorCode"] as? Int, answers[0]["ErrorMessage"] as? String ?? "")
    }

    /// A JSON value as text with sorted keys (inside `[…]`, so any value can be written), to compare answers.
    static func text(_ value: Any?) -> String {
        guard let value, let data = try? JSONSerialization.data(withJSONObject: [value], options: [.sortedKeys])
        else { return "none" }
        return String(decoding: data, as: UTF8.self)
    }
}
