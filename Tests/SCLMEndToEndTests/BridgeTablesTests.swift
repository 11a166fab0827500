import Foundation
import SCLMCore
import SCLMTestSupport
import Testing

/// `StoryCLM.Tables` through the built `sclm bridge` and the dev-server's tables, each command sent as
/// storyclm.js 1.7.x sends it (`StoryCLMBridge.Invoke(command, options, callback)`); the answer's `Data` is
/// the API's JSON, API errors keep their code and message, and without the API every command is 503. A
/// presentation reaches only its own client's tables.
@Suite(.tags(.large), .timeLimit(.minutes(2))) struct BridgeTablesTests {
    /// A home synced for two clients: client 1's presentation (opened) and client 2's, whose table 3 Clinics
    /// client 1's content must not reach.
    static let twoClients = [
        InstalledPresentationFixture(),
        InstalledPresentationFixture(
            presentationId: 20, clientId: 2, clientName: "Client two", name: "Clinics deck",
            slides: [.init("index.html")], mediaFiles: []),
    ]

    /// A bridge on client 1's presentation of `fixtures`, logged in to a fresh dev-server.
    static func online(fixtures: [InstalledPresentationFixture] = [InstalledPresentationFixture()]) async throws
        -> (DevServer, BridgeSession)
    {
        let server = try await DevServer.start(["--quiet"])
        let bridge = try await BridgeSession(fixtures: fixtures, environment: server.environment)
        let login = try await ProcessRunner.sclm(
            ["login", "--service"], home: bridge.home.root, environment: server.environment)
        try #require(login.status == 0, "\(login)")
        return (server, bridge)
    }

    static func data(_ bridge: BridgeSession, _ command: String, _ data: [String: Any]) async throws -> Any {
        let answer = try #require(await bridge.call(command, data))
        try #require(answer["ErrorCode"] as? Int == 200, "\(command): \(answer)")
        return try #require(answer["Data"])
    }

    @Test func everyTablesCommandReachesTheAPI() async throws {
        let (server, bridge) = try await Self.online()
        defer { server.stop() }
        let tables = try #require(try await Self.data(bridge, "tables", [:]) as? [[String: Any]])
        #expect(tables.compactMap { $0["name"] as? String } == ["Contacts", "QuizAnswers"])
        #expect(try await Self.data(bridge, "count", ["tableId": 1]) as? [String: Int] == ["count": 3])
        let cardiology = ["tableId": 1, "query": "[specialty][eq][cardiology]"] as [String: Any]
        #expect(try await Self.data(bridge, "countByQuery", cardiology) as? [String: Int] == ["count": 2])
        // StoryCLM.Tables.Find(1, TablesQuery().Query(…).Sort(-1, "visits")) sends the TablesQuery itself;
        // content adds tableId.
        let query: [String: Any] = [
            "tableId": 1, "skip": 0, "take": 100, "query": "[specialty][eq][cardiology]", "sort": -1,
            "sortfield": "visits",
        ]
        let found = try #require(try await Self.data(bridge, "findByQuery", query) as? [[String: Any]])
        #expect(found.compactMap { $0["visits"] as? Int } == [5, 3])
        let ids = found.compactMap { $0["_id"] as? String }
        let one = try #require(try await Self.data(bridge, "findById", ["tableId": 1, "id": ids[0]]) as? [String: Any])
        #expect(one["name"] as? String == "Dr. Marta Soler")
        let both = try #require(
            try await Self.data(bridge, "findByIds", ["tableId": 1, "ids": ids]) as? [[String: Any]])
        #expect(both.count == 2)
        #expect(await bridge.process.finish() == 0)
    }

    @Test func entriesAreInsertedUpdatedAndDeleted() async throws {
        let (server, bridge) = try await Self.online()
        defer { server.stop() }
        let inserted = try #require(
            try await Self.data(bridge, "insertEntry", ["tableId": 2, "entry": ["question": "q1", "answer": "a"]])
                as? [String: Any])
        let first = try #require(inserted["_id"] as? String)
        let more = try #require(
            try await Self.data(
                bridge, "insertEntries",
                ["tableId": 2, "entries": [["question": "q2", "answer": "b"], ["question": "q3", "answer": "c"]]])
                as? [[String: Any]])
        let others = more.compactMap { $0["_id"] as? String }
        #expect(others.count == 2)
        var changed = inserted
        changed["answer"] = "z"
        let updated = try await Self.data(bridge, "updateEntry", ["tableId": 2, "entry": changed]) as? [String: Any]
        #expect(updated?["answer"] as? String == "z")
        let renamed = more.map { entry in entry.merging(["answer": "y"]) { _, new in new } }
        let many = try await Self.data(bridge, "updateEntries", ["tableId": 2, "entries": renamed]) as? [[String: Any]]
        #expect(many?.compactMap { $0["answer"] as? String } == ["y", "y"])
        let deleted = try await Self.data(bridge, "deleteById", ["tableId": 2, "id": first]) as? [String: Any]
        #expect(deleted?["answer"] as? String == "z")
        #expect((try await Self.data(bridge, "deleteByIds", ["tableId": 2, "ids": others]) as? [Any])?.count == 2)
        #expect(try await Self.data(bridge, "count", ["tableId": 2]) as? [String: Int] == ["count": 0])
        #expect(await bridge.process.finish() == 0)
    }

    @Test func errorsKeepTheirCodeAndSayWhatIsWrong() async throws {
        let (server, bridge) = try await Self.online()
        defer { server.stop() }
        let unknown = await bridge.call("count", ["tableId": 99])
        #expect(unknown?["ErrorCode"] as? Int == 404)
        #expect(unknown?["ErrorMessage"] as? String == "StoryCLM Tables: no table 99")
        let badQuery = await bridge.call("countByQuery", ["tableId": 1, "query": "name = 'x'"])
        #expect(badQuery?["ErrorCode"] as? Int == 400)
        #expect((badQuery?["ErrorMessage"] as? String)?.contains("bad TablesQuery") == true)
        // As storyclm.js sends it: the TablesQuery without a table id.
        let noTable = await bridge.call(
            "findByQuery", ["skip": 0, "take": 100, "query": "", "sort": -1, "sortfield": ""])
        #expect(noTable?["ErrorCode"] as? Int == 400)
        #expect((noTable?["ErrorMessage"] as? String)?.contains("needs the table id: add tableId") == true)
        let noEntry = await bridge.call("insertEntry", ["tableId": 2, "entry": [1]])
        #expect(noEntry?["ErrorCode"] as? Int == 400)
        #expect(await bridge.process.finish() == 0)
    }

    @Test func withoutTheAPIEveryTablesCommandIs503() async throws {
        let bridge = try await BridgeSession(environment: ["SCLM_API_URL": ""])
        for (command, data) in [("tables", [:]), ("count", ["tableId": 1]), ("findById", ["tableId": 1, "id": "x"])]
            as [(String, [String: Any])]
        {
            let answer = await bridge.call(command, data)
            #expect(answer?["ErrorCode"] as? Int == 503, "\(command)")
            #expect((answer?["ErrorMessage"] as? String)?.contains("not available offline") == true, "\(command)")
        }
        #expect(await bridge.process.finish() == 0)
    }

    /// Every command that names a table, on client 2's table 3 with `Data` that table would answer (the
    /// dev-server stamps its one entry `…04`), reads before writes.
    static var commandsOnClientTwosTable: [(String, [String: Any])] {
        let entry = String(repeating: "0", count: 22) + "04"
        return [
            ("count", ["tableId": 3]),
            ("countByQuery", ["tableId": 3, "query": "[city][eq][Girona]"]),
            ("findById", ["tableId": 3, "id": entry]),
            ("findByIds", ["tableId": 3, "ids": [entry]]),
            ("findByQuery", ["tableId": "3", "skip": 0, "take": 100, "query": "", "sort": 1, "sortfield": ""]),
            ("insertEntry", ["tableId": 3, "entry": ["city": "Lleida", "beds": 10]]),
            ("insertEntries", ["tableId": 3, "entries": [["city": "Reus", "beds": 5]]]),
            ("updateEntry", ["tableId": 3, "entry": ["_id": entry, "city": "Vic", "beds": 0]]),
            ("updateEntries", ["tableId": 3, "entries": [["_id": entry, "city": "Vic", "beds": 0]]]),
            ("deleteById", ["tableId": 3, "id": entry]),
            ("deleteByIds", ["tableId": 3, "ids": [entry]]),
        ]
    }

    @Test func everyCommandOnAnotherClientsTableAnswers404AndNeverReachesTheAPI() async throws {
        let (server, bridge) = try await Self.online(fixtures: Self.twoClients)
        defer { server.stop() }
        let describe = try #require(await bridge.data("bridge.describe") as? [String: Any])
        let modules = try #require(describe["modules"] as? [[String: Any]])
        let declared = try #require(modules.first { $0["name"] as? String == "Tables" }?["commands"] as? [String])
        #expect(Set(Self.commandsOnClientTwosTable.map(\.0)) == Set(declared).subtracting(["tables"]))
        for (command, data) in Self.commandsOnClientTwosTable {
            let answer = await bridge.call(command, data)
            #expect(
                answer?["ErrorCode"] as? Int == 404,
                "\(command) reaches client 2's table: \(String(describing: answer))")
            #expect(answer?["ErrorMessage"] as? String == "StoryCLM Tables: no table 3", "\(command)")
        }
        let requests = try await server.stats().requests
        #expect(requests.keys.filter { $0.contains(" /v1/tables/3/") }.sorted() == [])
        #expect(requests["GET /v1/tables/2/tables"] == nil, "client 2's list of tables was asked for")
        #expect(await bridge.process.finish() == 0)
    }

    @Test func ownTablesAnswerAsBeforeAndTheirListIsAskedForOncePerRun() async throws {
        let (server, bridge) = try await Self.online(fixtures: Self.twoClients)
        defer { server.stop() }
        // Sent at once: they all wait for the one list.
        let guids = (1...4).map { "count-\($0)" }
        for guid in guids { bridge.process.send(json: ["Command": "count", "Data": ["tableId": 1], "GUID": guid]) }
        for guid in guids {
            #expect(await bridge.process.response(to: guid)?["Data"] as? [String: Int] == ["count": 3], "\(guid)")
        }
        let inserted = try await Self.data(bridge, "insertEntry", ["tableId": 2, "entry": ["question": "q"]])
        #expect((inserted as? [String: Any])?["question"] as? String == "q")
        #expect(try await Self.data(bridge, "count", ["tableId": "2"]) as? [String: Int] == ["count": 1])
        let unknown = await bridge.call("count", ["tableId": 99])
        #expect(unknown?["ErrorCode"] as? Int == 404)
        #expect(unknown?["ErrorMessage"] as? String == "StoryCLM Tables: no table 99")
        let requests = try await server.stats().requests
        #expect(requests["GET /v1/tables/1/tables"] == 1)
        #expect(requests["GET /v1/tables/1/count"] == 4)
        #expect(requests["POST /v1/tables/2/insert"] == 1)
        #expect(requests["GET /v1/tables/99/count"] == nil)
        #expect(await bridge.process.finish() == 0)
    }

    @Test func aTableListTheAPIRefusesFailsTheCommandAsTablesWouldAndIsAskedForAgain() async throws {
        let (server, bridge) = try await Self.online()
        defer { server.stop() }
        try await server.control(["action": "fail", "status": 500, "path": "/v1/tables/1/tables", "count": 2])
        let listed = try #require(await bridge.call("tables"))
        #expect(listed["ErrorCode"] as? Int == 502)
        let counted = try #require(await bridge.call("count", ["tableId": 1]))
        #expect(counted["ErrorCode"] as? Int == 502)
        #expect(counted["ErrorMessage"] as? String == listed["ErrorMessage"] as? String)
        #expect(try await server.stats().count("GET /v1/tables/1/count") == 0)
        #expect(try await Self.data(bridge, "count", ["tableId": 1]) as? [String: Int] == ["count": 3])
        #expect(try await server.stats().count("GET /v1/tables/1/tables") == 3)
        #expect(await bridge.process.finish() == 0)
    }
}
