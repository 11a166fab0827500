import Foundation
import SCLMCore
import SCLMStore
import SCLMTestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// `sclm events list|flush` and the flush at the end of `sclm sync`, against the dev-server's StoryIoT
/// hub, with analytics rows written into the home's database the way the bridge writes them.
@Suite(.tags(.large), .timeLimit(.minutes(2))) struct EventsTests {
    let server: DevServer
    let folder = TemporaryDirectory()
    var home: String { folder.appending("home") }

    init() throws { server = try DevServer(["--quiet"]) }

    /// Runs `sclm` on the home with the StoryIoT settings (and UTC, so local times are predictable).
    func sclm(_ arguments: [String], environment: [String: String] = [:]) async throws -> ProcessResult {
        let base = server.iotEnvironment.merging(["TZ": "UTC"]) { _, new in new }
        return try await ProcessRunner.sclm(
            arguments, home: home, environment: base.merging(environment) { _, new in new })
    }

    /// Creates the home and writes rows into its database.
    func writeRows(_ body: @escaping @Sendable (Database) throws -> Void) async throws {
        if !FileManager.default.fileExists(atPath: home) {
            let status = try await sclm(["status"])
            try #require(status.status == 0, "\(status)")
        }
        try ContentStore(path: home + "/sclm.db").writeNow(body)
    }

    func column(_ sql: String) throws -> [String] {
        try ContentStore(path: home + "/sclm.db").readNow { db in
            try db.fetchAll(sql).map { $0.columns.first.flatMap { String.fromDatabaseValue($0.value) } ?? "" }
        }
    }

    func json(_ result: ProcessResult) throws -> [String: Any] {
        let line = try #require(result.stdoutLines.last)
        return try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
    }

    /// A completed session (two slide views, a custom event), a test session (a slide view, an event)
    /// and an unfinished one with a slide view: four rows to publish now, two after completion, three never.
    func writeScenario() async throws {
        try await writeRows { db in
            try db.insertAnalyticsSession(
                "s-done", state: 1, created: "2026-03-01T09:15:02.123Z", complete: true, duration: 42, slidesCount: 2,
                latitude: 55.75, longitude: 37.61, address: "Tverskaya 1")
            try db.insertAnalyticsSlideView(
                "a-done-1", sessionId: "s-done", slideId: 10100, slideName: "index.html", duration: 30,
                created: "2026-03-01T09:15:02.200Z")
            try db.insertAnalyticsSlideView(
                "a-done-2", sessionId: "s-done", slideId: 10101, slideName: "2.html", duration: 12,
                created: "2026-03-01T09:15:32.200Z")
            try db.insertAnalyticsCustomEvent(
                "e-done", sessionId: "s-done", key: "brand", value: "cardiora", created: "2026-03-01T09:15:40.000Z")
            try db.insertAnalyticsSession("s-test", state: 2, created: "2026-03-01T10:00:00.000Z")
            try db.insertAnalyticsSlideView("a-test", sessionId: "s-test", created: "2026-03-01T10:00:01.000Z")
            try db.insertAnalyticsCustomEvent("e-test", sessionId: "s-test", created: "2026-03-01T10:00:02.000Z")
            try db.insertAnalyticsSession("s-open", state: 0, created: "2026-03-01T11:00:00.000Z")
            try db.insertAnalyticsSlideView("a-open", sessionId: "s-open", created: "2026-03-01T11:00:01.000Z")
        }
    }

    /// `count` rows: one completed session and its slide views.
    func writeRows(count: Int) async throws {
        try await writeRows { db in
            try db.insertAnalyticsSession("s-1", state: 1, complete: true)
            for index in 1..<count {
                try db.insertAnalyticsSlideView(String(format: "a-%03d", index), sessionId: "s-1")
            }
        }
    }

    @Test func flushDeliversCompletedSessionsWithTheirRowsAndNothingElse() async throws {
        try await writeScenario()
        let flush = try await sclm(["events", "flush", "--json"])
        #expect(flush.status == 0, "\(flush)")
        let report = try json(flush)
        #expect(report["published"] as? Int == 4 && report["ok"] as? Bool == true)
        #expect(report["pending"] as? Int == 2 && report["waiting"] as? Int == 2)

        var received = try await server.iotReceived()
        #expect(Set(received.byEntity.keys) == ["s-done", "a-done-1", "a-done-2", "e-done"])
        let session = try #require(received.byEntity["s-done"])
        let deviceId = try #require(try column("SELECT value FROM preferences WHERE key = 'deviceId'").first)
        #expect(session.headers["s-m-eid"] == "story.content.session")
        #expect(session.headers["s-m-did"] == deviceId && session.headers["s-m-uid"] == "user-1")
        #expect(session.headers["s-m-id"] == "s-done" && session.headers["s-m-ct"] == "s-done")
        #expect(session.headers["s-m-cud"] == "u" && session.headers["s-m-tz"] == "3")
        #expect(session.headers["s-m-lt"] == "2026-03-01T12:15:02.1230000")
        #expect(session.headers["s-m-geo"] == "on;55.75,37.61")
        #expect(session.headers["s-m-an"] == "sclm" && session.headers["s-m-m"] == SystemFacts.model())
        #expect(session.headers["s-m-os"] == SystemFacts.osRelease()["NAME"] ?? "Linux")
        #expect(session.headers["s-m-lng"] == "en")
        for name in ["s-m-osv", "s-m-av", "s-m-ns"] { #expect(session.headers[name]?.isEmpty == false) }
        #expect(
            session.body == [
                "sessionId": "s-done", "presentationId": "101", "userId": "user-1", "address": "Tverskaya 1",
                "created": "2026-03-01T12:15:02.1230000", "state": 1, "complete": true, "latitude": 55.75,
                "longitude": 37.61, "duration": 42, "slidesCount": 2, "timeZone": 3, "completeSessionDuration": 42,
            ])
        let slide = try #require(received.byEntity["a-done-2"])
        #expect(slide.headers["s-m-eid"] == "story.content.slide" && slide.headers["s-m-ct"] == "s-done")
        #expect(
            slide.body == [
                "id": "a-done-2", "sessionId": "s-done", "presentationId": "101", "userId": "user-1",
                "slideId": "10101", "slideName": "2.html", "navigation": "in",
                "created": "2026-03-01T12:15:32.2000000", "timeZone": 3, "duration": 12,
            ])
        let event = try #require(received.byEntity["e-done"])
        #expect(event.headers["s-m-eid"] == "story.content.customevent" && event.headers["s-m-geo"] == "off")
        #expect(
            event.body == [
                "id": "e-done", "sessionId": "s-done", "presentationId": "101", "userId": "user-1", "key": "brand",
                "value": "cardiora", "created": "2026-03-01T12:15:40.0000000", "timeZone": 3,
            ])

        try await writeRows { db in try db.execute("UPDATE sessions SET state = 1 WHERE sessionId = 's-open'") }
        let second = try await sclm(["events", "flush"])
        #expect(second.status == 0, "\(second)")
        #expect(second.stdout.contains("Analytics: published 2, 0 pending."))
        received = try await server.iotReceived()
        #expect(Set(received.byEntity.keys) == ["s-done", "a-done-1", "a-done-2", "e-done", "s-open", "a-open"])
        #expect(received.messages.count == 6 && received.duplicates == 0)
        #expect(Set(received.messages.map { $0.headers["s-m-did"] }) == [deviceId])

        let list = try json(try await sclm(["events", "list", "--json"]))
        let states = Dictionary(
            uniqueKeysWithValues: (list["events"] as? [[String: Any]] ?? []).map {
                ($0["id"] as? String ?? "", $0["state"] as? String ?? "")
            })
        #expect(states["s-test"] == "test" && states["a-test"] == "test" && states["e-test"] == "test")
        #expect(states["a-open"] == "published" && states["e-done"] == "published")
        #expect(
            (list["counts"] as? [String: Int]) == ["pending": 0, "waiting": 0, "test": 3, "parked": 0, "published": 6])
    }

    @Test func halfOfThePublishesFailingConvergesWithoutDuplicates() async throws {
        try await writeRows(count: 12)
        #expect(try await sclm(["config", "set", "http.retries", "0"]).status == 0)
        try await server.control(["action": "iotFail", "ratio": 0.5, "status": 503])
        var runs = 0
        var last: ProcessResult?
        while runs < 30 {
            runs += 1
            let result = try await sclm(["events", "flush", "--json"])
            last = result
            if result.status == 0 { break }
            #expect(result.status == 1, "\(result)")
        }
        #expect(last?.status == 0, "\(String(describing: last))")
        #expect(runs > 1)
        let received = try await server.iotReceived()
        #expect(received.messages.count == 12 && received.byEntity.count == 12)
        #expect(received.duplicates == 0 && received.failed >= runs - 1)
        #expect(try column("SELECT count(*) FROM session_actions WHERE synchronized = 1") == ["11"])
        #expect(try column("SELECT synchronized FROM sessions") == ["1"])
    }

    @Test func aFlushKilledMidwayLosesNothing() async throws {
        try await writeRows(count: 12)
        // Three publishes are stored but their answers stall, so sclm cannot mark them before it dies.
        try await server.control([
            "action": "stall", "seconds": 60, "afterBytes": 1, "count": 3,
            "path": .string("/\(DevServer.iotHub)/publish"),
        ])
        let process = try launchSclm(["events", "flush"])
        let deadline = Date().addingTimeInterval(30)
        while Date() < deadline {
            let stored = try await server.iotReceived().messages.count
            let marked = try column(
                "SELECT (SELECT count(*) FROM sessions WHERE synchronized = 1) "
                    + "+ (SELECT count(*) FROM session_actions WHERE synchronized = 1)")
            if stored == 12 && marked == ["9"] { break }
            try await Task.sleep(for: .milliseconds(50))
        }
        #expect(try await server.iotReceived().messages.count == 12)
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
        #expect(process.terminationReason == .uncaughtSignal && process.terminationStatus == SIGKILL)
        #expect(
            try column(
                "SELECT (SELECT count(*) FROM sessions WHERE synchronized = 0) "
                    + "+ (SELECT count(*) FROM session_actions WHERE synchronized = 0)") == ["3"])

        try await server.control(["action": "reset"])
        let rerun = try await sclm(["events", "flush", "--json"])
        #expect(rerun.status == 0, "\(rerun)")
        #expect(try json(rerun)["published"] as? Int == 3)
        let received = try await server.iotReceived()
        #expect(received.messages.count == 12 && received.byEntity.count == 12)
        #expect(received.duplicates == 3)
        #expect(try column("SELECT count(*) FROM session_actions WHERE synchronized = 0") == ["0"])
    }

    @Test func aWrongSecretParksEveryRowUntilRetried() async throws {
        try await writeScenario()
        let refused = try await sclm(["events", "flush", "--json"], environment: ["SCLM_IOT_SECRET": "wrong"])
        #expect(refused.status == 1, "\(refused)")
        let report = try json(refused)
        #expect(report["parked"] as? Int == 4 && report["published"] as? Int == 0 && report["ok"] as? Bool == false)
        let failure = try #require((report["failures"] as? [[String: Any]])?.first?["error"] as? String)
        #expect(failure.contains("HTTP 401") && failure.contains("iot.secret") && failure.contains("--retry-parked"))
        #expect(!refused.stdout.contains("wrong") && !refused.stderr.contains("wrong"))
        var received = try await server.iotReceived()
        #expect(received.messages.isEmpty && received.rejected == 4)

        let list = try json(try await sclm(["events", "list", "--pending", "--json"]))
        let events = list["events"] as? [[String: Any]] ?? []
        #expect(events.filter { $0["state"] as? String == "parked" }.count == 4)
        #expect(events.allSatisfy { $0["state"] as? String != "parked" || ($0["error"] as? String) == failure })

        let skipped = try await sclm(["events", "flush"])
        #expect(skipped.status == 0, "\(skipped)")
        #expect(skipped.stdout.contains("4 parked row(s) wait for `sclm events flush --retry-parked`"))
        #expect(try await server.iotReceived().messages.isEmpty)

        let retried = try await sclm(["events", "flush", "--retry-parked", "--json"])
        #expect(retried.status == 0, "\(retried)")
        #expect(try json(retried)["published"] as? Int == 4)
        received = try await server.iotReceived()
        #expect(Set(received.byEntity.keys) == ["s-done", "a-done-1", "a-done-2", "e-done"])
    }

    @Test func flushWithoutStoryIoTSettingsIsAUsageError() async throws {
        try await writeScenario()
        let result = try await ProcessRunner.sclm(["events", "flush"], home: home)
        #expect(result.status == 64, "\(result)")
        #expect(result.stderr.contains("StoryIoT is not configured") && result.stderr.contains("iot.endpoint"))
        #expect(result.stderr.contains("6 row(s) stay queued"))
        let partial = try await ProcessRunner.sclm(
            ["events", "flush"], home: home, environment: ["SCLM_IOT_ENDPOINT": server.url.absoluteString])
        #expect(partial.status == 64 && partial.stderr.contains("iot.hub, iot.key, iot.secret are not set"))
        #expect(try column("SELECT count(*) FROM sessions WHERE synchronized = 1") == ["0"])
    }

    @Test func syncPublishesAtItsEndAndAFailedFlushIsOnlyAWarning() async throws {
        let environment = server.environment
        let login = try await ProcessRunner.sclm(
            ["login", "--username", DevServer.username, "--password-stdin"], home: home,
            stdin: DevServer.password + "\n", environment: environment)
        try #require(login.status == 0, "\(login)")
        try await writeScenario()

        let refused = try await sclm(
            ["sync", "--metadata-only", "--json"],
            environment: environment.merging(["SCLM_IOT_SECRET": "wrong"]) { _, new in new })
        #expect(refused.status == 0, "\(refused)")
        let lines = refused.stdoutLines.compactMap {
            try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]
        }
        #expect(lines.map { $0["event"] as? String } == ["summary", "analytics"])
        #expect(lines.last?["ok"] as? Bool == false && lines.last?["parked"] as? Int == 4)

        let synced = try await sclm(["sync", "--metadata-only"], environment: environment)
        #expect(synced.status == 0, "\(synced)")
        #expect(synced.stdout.contains("Analytics: published 0") && synced.stdout.contains("--retry-parked"))
        #expect(try await server.iotReceived().messages.isEmpty)

        #expect(try await sclm(["events", "flush", "--retry-parked"]).status == 0)
        try await writeRows { db in
            try db.insertAnalyticsSlideView("a-done-3", sessionId: "s-done", created: "2026-03-01T09:16:00.000Z")
        }
        let again = try await sclm(["sync", "--metadata-only"], environment: environment)
        #expect(again.status == 0, "\(again)")
        #expect(again.stdout.contains("Analytics: published 1, 2 pending (2 waiting for their session to complete)."))
        #expect(try await server.iotReceived().messages.count == 5)
    }

    /// Starts `sclm` without waiting for it (output discarded), so the test can kill it.
    func launchSclm(_ arguments: [String]) throws -> Process {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: ProcessRunner.sclmPath)
        process.arguments = ["--home", home] + arguments
        process.environment = server.iotEnvironment.merging(["PATH": "/usr/bin:/bin", "TZ": "UTC"]) { _, new in new }
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        return process
    }
}
