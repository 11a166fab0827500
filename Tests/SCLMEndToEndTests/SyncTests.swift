import Foundation
import SCLMCore
import SCLMStore
import SCLMTestSupport
import Testing

/// `sclm sync --metadata-only`, `list` and `show` against the dev-server, through the built binary:
/// what is requested, what is stored, and how faults are survived.
@Suite(.tags(.large), .timeLimit(.minutes(2))) struct SyncTests {
    let server: DevServer
    let folder = TemporaryDirectory()
    var home: String { folder.appending("home") }

    init() async throws { server = try await DevServer.start(["--quiet"]) }

    init(serverArguments: [String]) async throws { server = try await DevServer.start(serverArguments) }

    func sclm(_ arguments: [String], stdin: String = "", environment: [String: String] = [:]) async throws
        -> ProcessResult
    {
        try await ProcessRunner.sclm(
            arguments, home: home, stdin: stdin, environment: server.environment.merging(environment) { _, new in new })
    }

    func login() async throws {
        let result = try await sclm(
            ["login", "--username", DevServer.username, "--password-stdin"], stdin: DevServer.password + "\n")
        try #require(result.status == 0, "\(result)")
    }

    /// Logs in, syncs once and zeroes the server's counters.
    func loginAndSync() async throws {
        try await login()
        let first = try await sclm(["sync", "--metadata-only"])
        try #require(first.status == 0, "\(first)")
        try await server.control(["action": "resetStats"])
    }

    func list() async throws -> [Int64: [String: Any]] {
        let result = try await sclm(["list", "--json"])
        let object = try #require(try result.json() as? [String: Any])
        let clients = try #require(object["clients"] as? [[String: Any]])
        var presentations: [Int64: [String: Any]] = [:]
        for client in clients {
            for presentation in client["presentations"] as? [[String: Any]] ?? [] {
                if let id = presentation["presentationId"] as? Int { presentations[Int64(id)] = presentation }
            }
        }
        return presentations
    }

    @Test func syncsTheSampleContentMetadata() async throws {
        try await login()
        let result = try await sclm(["sync", "--metadata-only", "--json"])
        #expect(result.status == 0, "\(result)")
        let report = try #require(try result.json() as? [String: Any])
        #expect(report["event"] as? String == "summary" && report["ok"] as? Bool == true)
        let metadata = try #require(report["metadata"] as? [String: Any])
        #expect((metadata["added"] as? [Int])?.sorted() == [101, 102, 103, 201, 202])
        #expect(
            (report["pendingContent"] as? [[String: Any]])?.compactMap { $0["presentationId"] as? Int }.sorted() == [
                101, 102, 103, 201,
            ])
        let presentations = try await list()
        #expect(presentations[101]?["revision"] as? Int == 4)
        #expect(presentations[101]?["syncState"] as? String == "readyToDownload")
        #expect(presentations[101]?["installedRevision"] is NSNull)
        #expect(presentations[202]?["syncState"] as? String == "metadataOnly")
        #expect(presentations[202]?["skip"] as? Bool == true)
        let show = try await sclm(["show", "101", "--json"])
        let details = try #require(try show.json() as? [String: Any])
        let slides = try #require(details["slides"] as? [[String: Any]])
        #expect(slides.first?["name"] as? String == "index.html")
        #expect(slides.count == 5)
        #expect((details["mediaFiles"] as? [[String: Any]])?.count == 1)
        #expect((details["package"] as? [String: Any])?["fileSize"] as? Int ?? 0 > 0)
        #expect((details["presentation"] as? [String: Any])?["rawData"] == nil)
        let text = try await sclm(["list"])
        #expect(text.stdout.contains("Demo Pharma (client 1)"))
        #expect(text.stdout.contains("ready to download"))
        let status = try await sclm(["status", "--json"])
        #expect((try status.json() as? [String: Any])?["lastSyncResult"] as? String == "ok")
    }

    @Test func aNoOpSecondSyncSendsOnlyTheClientList() async throws {
        try await loginAndSync()
        let second = try await sclm(["sync", "--metadata-only"])
        #expect(second.status == 0, "\(second)")
        #expect(second.stdout.contains("0 new, 0 updated, 0 removed, 5 unchanged"))
        #expect(try await server.stats().requests == ["GET /v1/clients": 1])
    }

    @Test func aRevisionBumpRefetchesExactlyThatPresentation() async throws {
        try await loginAndSync()
        try await server.control(["action": "bumpRevision", "presentationId": 102])
        let result = try await sclm(["sync", "--metadata-only"])
        #expect(result.status == 0, "\(result)")
        let stats = try await server.stats()
        #expect(stats.count(prefix: "GET /v1/presentations/") == 1)
        #expect(stats.count("GET /v1/presentations/102") == 1)
        #expect(stats.count(prefix: "GET /v1/slides/") == 0)
        #expect(try await list()[102]?["revision"] as? Int == 3)
    }

    @Test func anInstalledPresentationWhoseRevisionMovedHasAnUpdate() async throws {
        try await loginAndSync()
        let database = try Database(path: home + "/sclm.db")
        try database.execute(
            "UPDATE presentations SET installedRevision = revision, syncState = 5 WHERE presentationId = 101")
        try await server.control(["action": "bumpRevision", "presentationId": 101])
        _ = try await sclm(["sync", "--metadata-only"])
        let presentation = try #require(try await list()[101])
        #expect(presentation["syncState"] as? String == "updateAvailable")
        #expect(presentation["installedRevision"] as? Int == 4)
        #expect(presentation["revision"] as? Int == 5)
    }

    @Test func aDeletedPresentationDisappearsWithItsContent() async throws {
        try await loginAndSync()
        let content = home + "/content/1/103/sources"
        try FileSystem.makeDirectory(content)
        try Data("<html></html>".utf8).write(to: URL(fileURLWithPath: content + "/index.html"))
        try await server.control(["action": "deletePresentation", "presentationId": 103])
        let result = try await sclm(["sync", "--metadata-only"])
        #expect(result.stdout.contains("1 removed"))
        #expect(try await list()[103] == nil)
        #expect(!FileSystem.exists(home + "/content/1/103"))
        let show = try await sclm(["show", "103"])
        #expect(show.status == 1)
        #expect(show.stderr.contains("presentation 103 is not stored"))
    }

    @Test func aRejectedRefreshTokenExits77WithTheMessageAndNoLoop() async throws {
        try await loginAndSync()
        try await server.control(["action": "expireTokens", "which": "all"])
        let result = try await sclm(["sync", "--metadata-only"])
        #expect(result.status == 77, "\(result)")
        #expect(result.stderr.contains("session expired — run `sclm login`"))
        let stats = try await server.stats()
        #expect(stats.count("POST /connect/token refresh_token") == 1)
        #expect(stats.count("GET /v1/clients") == 1)
        let status = try await sclm(["status", "--json"])
        #expect((try status.json() as? [String: Any])?["lastSyncResult"] as? String == "failed")
    }

    @Test func survivesTwo503sThenSucceeds() async throws {
        try await login()
        try await server.control(["action": "fail", "status": 503, "count": 2, "retryAfter": 1, "path": "/v1/clients"])
        let result = try await sclm(["sync", "--metadata-only"])
        #expect(result.status == 0, "\(result)")
        #expect(try await server.stats().count("GET /v1/clients") == 3)
        #expect(result.stderr.contains("answered HTTP 503"))
        #expect(result.stderr.contains("retry 1 of 4 in 1 s"))
    }

    @Test func aDroppedConnectionIsRetried() async throws {
        try await login()
        try await server.control(["action": "drop", "afterBytes": 20, "path": "/v1/presentations/101"])
        let result = try await sclm(["sync", "--metadata-only"])
        #expect(result.status == 0, "\(result)")
        #expect(try await server.stats().count("GET /v1/presentations/101") == 2)
        #expect(try await list()[101]?["revision"] as? Int == 4)
    }

    @Test func tokensInsteadOfContentAreStoredAndTheRequestReplayed() async throws {
        try await login()
        try await server.control(["action": "tokensInsteadOfContent", "count": 1, "path": "/v1/presentations/102"])
        let result = try await sclm(["sync", "--metadata-only"])
        #expect(result.status == 0, "\(result)")
        #expect(try await server.stats().count("GET /v1/presentations/102") == 2)
        #expect(try await list()[102]?["name"] as? String == "Respira Inhaler — Patient Training")
    }

    @Test func aPresentationThatKeepsFailingIsReportedAndTheOthersAreSynced() async throws {
        try await login()
        try await server.control(["action": "fail", "status": 500, "count": -1, "path": "/v1/presentations/103"])
        let result = try await sclm(["sync", "--metadata-only", "--json"], environment: ["SCLM_HOME": home])
        #expect(result.status == 1, "\(result)")
        #expect(result.stderr.contains("presentation 103"))
        #expect(result.stderr.contains("/v1/presentations/103 answered HTTP 500"))
        let report = try #require(try result.json() as? [String: Any])
        #expect(report["ok"] as? Bool == false)
        let presentations = try await list()
        #expect(presentations[103] == nil)
        #expect(presentations[101] != nil && presentations[201] != nil)
        try await server.control(["action": "reset"])
        let retry = try await sclm(["sync", "--metadata-only"])
        #expect(retry.stdout.contains("1 new"))
    }

    @Test func aClientCanBeChosenByName() async throws {
        try await login()
        let result = try await sclm(["sync", "--metadata-only", "--client", "northwind health"])
        #expect(result.status == 0, "\(result)")
        #expect(Set(try await list().keys) == [201, 202])
        let unknown = try await sclm(["sync", "--metadata-only", "--client", "Acme"])
        #expect(unknown.status == 1)
        #expect(
            unknown.stderr.contains(
                "no client 'Acme' on the server; known clients: Demo Pharma (1), Northwind Health (2)"))
        let listed = try await sclm(["list", "--client", "2", "--json"])
        #expect((try listed.json() as? [String: Any]).flatMap { $0["clients"] as? [[String: Any]] }?.count == 1)
    }

    @Test func syncWithoutMetadataOnlyRunsTheMetadataPhase() async throws {
        try await login()
        let result = try await sclm(["sync"])
        #expect(result.status == 0, "\(result)")
        #expect(result.stdout.contains("5 new"))
    }

    @Test func syncWithoutALoginExits77() async throws {
        let result = try await sclm(["sync", "--metadata-only"])
        #expect(result.status == 77)
        #expect(result.stderr.contains("not logged in — run `sclm login`"))
    }
}

/// Token expiry in the middle of a 50-presentation sync.
@Suite(.tags(.large), .timeLimit(.minutes(2))) struct TokenExpiryDuringSyncTests {
    @Test func accessTokenExpiryInTheMiddleCausesExactlyOneRefresh() async throws {
        let context = try await SyncTests(serverArguments: [
            "--quiet", "--synthetic-clients", "1", "--synthetic-presentations", "50",
        ])
        try await context.login()
        // The first four presentation requests (one per job) stall at the server, which checks the token
        // after the stall: expiring the tokens while all four are held, then releasing them, makes all four
        // fail with 401 at once. The stall's 60 s and the wait's deadline only guard against a hang.
        try await context.server.control(["action": "stall", "seconds": 60, "count": 4, "path": "/v1/presentations/"])
        async let sync = context.sclm(["sync", "--metadata-only", "--jobs", "4"])
        let deadline = ContinuousClock.now + .seconds(HangGuard.seconds)
        while try await context.server.stats().count(prefix: "GET /v1/presentations/") < 4,
            ContinuousClock.now < deadline
        {
            try await Task.sleep(for: .milliseconds(25))
        }
        try await context.server.control(["action": "expireTokens", "which": "access"])
        try await context.server.control(["action": "release"])
        let result = try await sync
        #expect(result.status == 0, "\(result)")
        #expect(result.stdout.contains("50 new"))
        let stats = try await context.server.stats()
        #expect(stats.count("POST /connect/token refresh_token") == 1)
        // Every request refused with 401 was replayed once with the renewed token (normally all four).
        let refused = Int(stats.raw["statuses"]?["401"]?.intValue ?? 0)
        #expect(refused >= 1)
        #expect(stats.count(prefix: "GET /v1/presentations/") == 50 + refused)
        #expect(try await context.list().count == 50)
    }
}
