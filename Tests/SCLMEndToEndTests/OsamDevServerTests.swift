import Foundation
import SCLMCore
import SCLMTestSupport
import Testing

/// `sclm osam …` through the built binary against the dev-server's OSAM endpoints: admin edits through
/// the `osam` control action, offline, clock skew, Basic auth, state surviving between processes.
@Suite(.tags(.large), .timeLimit(.minutes(2))) struct OsamDevServerTests {
    static let package = "cat.bcn.e2e"
    static let hour: Int64 = 3_600_000

    /// A home configured for `server` and the test package on ANDROID, build 100.
    struct Fixture {
        let server: DevServer
        let home = TemporaryDirectory()

        init() async throws {
            server = try DevServer(["--quiet"])
            for (key, value) in [
                ("osam.endpoint", server.url.absoluteString), ("osam.package", OsamDevServerTests.package),
                ("osam.platform", "ANDROID"), ("osam.versionCode", "100"),
            ] {
                let result = try await ProcessRunner.sclm(["config", "set", key, value], home: home.path)
                #expect(result.status == 0, "\(result)")
            }
        }

        /// Sets the backend's answers for the package (`osam` control action).
        func admin(_ fields: [String: JSONValue]) async throws {
            var action: [String: JSONValue] = [
                "action": "osam", "package": .string(OsamDevServerTests.package), "platform": "ANDROID",
            ]
            action.merge(fields) { _, new in new }
            try await server.control(.object(action))
        }

        func sclm(_ arguments: [String], environment: [String: String] = [:]) async throws -> ProcessResult {
            try await ProcessRunner.sclm(["osam"] + arguments + ["--json"], home: home.path, environment: environment)
        }

        /// `version-control` → (result, reason, alert mode).
        func check(_ extra: [String] = []) async throws -> (result: String, reason: String, mode: String?) {
            let output = try await sclm(["version-control"] + extra)
            let object = try #require(try output.json() as? [String: Any], "\(output)")
            let alert = object["alert"] as? [String: Any]
            return (object["result"] as? String ?? "", object["reason"] as? String ?? "", alert?["mode"] as? String)
        }

        func answer(_ choice: String, dontShowAgain: Bool = false) async throws -> [String: Any] {
            let output = try await sclm(
                ["version-control-answer", "--choice", choice] + (dontShowAgain ? ["--dont-show-again"] : []))
            #expect(output.status == 0, "\(output)")
            return try #require(try output.json() as? [String: Any])
        }
    }

    /// A version record valid from an hour ago to an hour from now (server clock).
    static func record(_ mode: String, message: String = "Please update", extra: [String: JSONValue] = [:]) -> JSONValue
    {
        let now = Timestamp.epochMilliseconds(Date())
        var record: [String: JSONValue] = [
            "versionCode": 101, "versionName": "1.0.1", "comparisonMode": .string(mode), "startDate": .int(now - hour),
            "endDate": .int(now + hour), "title": ["ca": "Actualitza", "es": "Actualiza", "en": "Update"],
            "message": ["ca": .string(message), "es": .string(message), "en": .string(message)],
            "url": "https://apps.example/e2e",
        ]
        record.merge(extra) { _, new in new }
        return .object(record)
    }

    @Test func lazyWithDontShowAgainStaysAwayUntilAnAdminEdit() async throws {
        let fixture = try await Fixture()
        try await fixture.admin(["version": Self.record("LAZY")])
        #expect(try await fixture.check() == ("SHOW", "armed", "LAZY"))
        #expect(try await fixture.answer("cancel")["response"] as? String == "CANCELLED")
        #expect(try await fixture.check() == ("SHOW", "armed", "LAZY"), "Cancel persists nothing")
        let accepted = try await fixture.answer("ok", dontShowAgain: true)
        #expect(accepted["response"] as? String == "ACCEPTED")
        #expect(accepted["openUrl"] as? String == "https://apps.example/e2e")
        #expect(try await fixture.check() == ("DISMISSED", "dont-show-again", nil))
        try await fixture.admin(["version": Self.record("LAZY", message: "Really, please update")])
        #expect(try await fixture.check() == ("SHOW", "armed", "LAZY"), "an admin edit re-arms")
    }

    /// iOS "don't show again", then an Android FORCE check: an offline iOS check still answers from iOS's
    /// own state (no Android alert, its "don't show again" kept).
    @Test func androidAndIOSChecksKeepSeparateState() async throws {
        let fixture = try await Fixture()
        try await fixture.admin(["platform": "IOS", "version": Self.record("LAZY")])
        #expect(try await fixture.check(["--platform", "IOS"]) == ("SHOW", "armed", "LAZY"))
        let answer = try await fixture.sclm(
            ["version-control-answer", "--platform", "IOS", "--choice", "ok", "--dont-show-again"])
        #expect(answer.status == 0, "\(answer)")
        try await fixture.admin(["version": Self.record("FORCE")])
        #expect(try await fixture.check(["--platform", "ANDROID"]).mode == "FORCE")
        #expect(try await fixture.check(["--offline", "--platform", "IOS"]) == ("DISMISSED", "dont-show-again", nil))
    }

    /// A home whose state predates per-platform state (all in `osam:<package>`) keeps it for the configured
    /// platform.
    @Test func aMigratedHomeKeepsItsState() async throws {
        let fixture = try await Fixture()
        try await fixture.admin(["version": Self.record("LAZY")])
        #expect(try await fixture.check() == ("SHOW", "armed", "LAZY"))
        _ = try await fixture.answer("ok", dontShowAgain: true)
        let database = Home(root: fixture.home.path).databasePath
        _ = try ProcessRunner.sql(
            "UPDATE preferences SET scope = 'osam:\(Self.package)' WHERE scope = 'osam:\(Self.package):ANDROID'",
            in: database)
        #expect(
            try ProcessRunner.sql(
                "SELECT count(*) FROM preferences WHERE scope = 'osam:\(Self.package):ANDROID'", in: database)
                == "[[0]]")
        #expect(try await fixture.check(["--offline"]) == ("DISMISSED", "dont-show-again", nil))
        #expect(try await fixture.check(["--offline", "--platform", "IOS"]).reason == "offline-never-fetched")
    }

    @Test func aDeviceClockSetBackAfterAnOKDoesNotBringTheAlertBackEarly() async throws {
        let fixture = try await Fixture()
        try await fixture.admin(["version": Self.record("LAZY")])
        let now = Timestamp.epochMilliseconds(Date())
        #expect(try await fixture.check(["--now", String(now)]) == ("SHOW", "armed", "LAZY"))
        #expect(try await fixture.sclm(["version-control-answer", "--choice", "ok", "--now", String(now)]).status == 0)
        #expect(
            try await fixture.check(["--now", String(now - 2 * Self.hour)]) == ("DISMISSED", "throttled", nil),
            "clock set back 2 h")
        #expect(try await fixture.check(["--now", String(now + Self.hour - 1)]) == ("DISMISSED", "throttled", nil))
        #expect(try await fixture.check(["--now", String(now + Self.hour)]) == ("SHOW", "armed", "LAZY"))
    }

    @Test func alertTextsFollowTheLanguageOrLocaleAndAnythingElseIsEnglish() async throws {
        let fixture = try await Fixture()
        try await fixture.admin(["version": Self.record("FORCE")])
        for (language, title) in [
            ("ca-ES", "Actualitza"), ("ES", "Actualiza"), ("es_ES", "Actualiza"), ("fr", "Update"), ("", "Update"),
        ] {
            let output = try await fixture.sclm(["version-control", "--language", language])
            #expect(output.status == 0, "--language '\(language)': \(output)")
            let alert = try #require(try output.json() as? [String: Any])["alert"] as? [String: Any]
            #expect(alert?["title"] as? String == title, "--language '\(language)'")
            #expect(try await fixture.answer("dismiss")["response"] as? String == "DISMISSED")
        }
    }

    @Test func aRatingRecordForAnUnknownPlatformIsAnError() async throws {
        let fixture = try await Fixture()
        try await fixture.admin(["rating": ["platform": "WINDOWS", "minutes": 0, "numAperture": 1]])
        let refused = try await fixture.sclm(["rating"])
        #expect(refused.status == 69, "\(refused)")
        #expect(refused.stdout == #"{"response":"ERROR"}"# + "\n")
        #expect(refused.stderr.contains("unknown platform 'WINDOWS'"), "\(refused.stderr)")
        try await fixture.admin(["rating": ["platform": "ANDROID", "minutes": 0, "numAperture": 1]])
        #expect(try await fixture.sclm(["rating"]).stdout == #"{"response":"ACCEPTED"}"# + "\n")
    }

    @Test func forceComesBackAndServesFromTheCacheWhenTheBackendIsGone() async throws {
        let fixture = try await Fixture()
        try await fixture.admin(["version": Self.record("FORCE")])
        #expect(try await fixture.check() == ("SHOW", "force", "FORCE"))
        #expect(try await fixture.answer("ok", dontShowAgain: true)["openUrl"] as? String == "https://apps.example/e2e")
        #expect(try await fixture.check() == ("SHOW", "force", "FORCE"))
        fixture.server.stop()
        #expect(
            try await fixture.check() == ("SHOW", "force", "FORCE"),
            "unreachable backend: the cached record of this build")
        #expect(try await fixture.check(["--version-code", "101"]) == ("DISMISSED", "offline-other-build", nil))
    }

    @Test func theWindowUsesServerTimeOnlineAndDeviceTimeOffline() async throws {
        let fixture = try await Fixture()
        try await fixture.admin(["version": Self.record("FORCE")])
        let skewed = String(Timestamp.epochMilliseconds(Date()) + 365 * 24 * Self.hour)
        #expect(
            try await fixture.check(["--now", skewed]) == ("SHOW", "force", "FORCE"),
            "a device a year ahead still shows online")
        #expect(try await fixture.check(["--now", skewed, "--offline"]) == ("DISMISSED", "outside-window", nil))
        #expect(try await fixture.check(["--offline"]) == ("SHOW", "force", "FORCE"))
    }

    @Test func aMissingRecordIsAnErrorThatChangesNothing() async throws {
        let fixture = try await Fixture()
        let output = try await fixture.sclm(["version-control"])
        #expect(output.status == 69)
        #expect(output.stdout == #"{"alert":null,"reason":"fetch-failed","result":"ERROR"}"# + "\n")
        #expect(output.stderr.contains("answered HTTP 404"))
        #expect(try await fixture.check(["--offline"]) == ("DISMISSED", "offline-never-fetched", nil))
    }

    @Test func basicAuthIsSentOnlyWhenConfiguredAndNeverShown() async throws {
        let fixture = try await Fixture()
        try await fixture.admin(["version": Self.record("INFO"), "basicAuth": "osam:s3cr3t-pass"])
        let refused = try await fixture.sclm(["version-control"])
        #expect(refused.status == 69)
        #expect(refused.stderr.contains("HTTP 401") && refused.stderr.contains("osam.username"))
        #expect(
            try await ProcessRunner.sclm(["config", "set", "osam.username", "osam"], home: fixture.home.path).status
                == 0)
        let environment = ["SCLM_OSAM_PASSWORD": "s3cr3t-pass"]
        let shown = try await fixture.sclm(["version-control", "-v"], environment: environment)
        #expect(shown.status == 0, "\(shown)")
        #expect(shown.stdout.contains(#""mode":"INFO""#))
        #expect(!(shown.stdout + shown.stderr).contains("s3cr3t"))
        let list = try await ProcessRunner.sclm(
            ["config", "get", "osam.password"], home: fixture.home.path, environment: environment)
        #expect(list.stdout == "********\n")
    }

    @Test func ratingIsDueAfterNOpeningsAndReachesTheAnalyticsOutbox() async throws {
        let fixture = try await Fixture()
        try await fixture.admin(["rating": ["minutes": 0, "numAperture": 3]])
        var responses: [String] = []
        for _ in 0..<4 {
            let output = try await fixture.sclm(["rating"])
            #expect(output.status == 0, "\(output)")
            responses.append(try #require(try output.json() as? [String: Any])["response"] as? String ?? "")
        }
        #expect(responses == ["DISMISSED", "DISMISSED", "ACCEPTED", "DISMISSED"])
        let status = try await ProcessRunner.sclm(["status", "--json"], home: fixture.home.path)
        let counts = try #require((try status.json() as? [String: Any])?["counts"] as? [String: Any])
        #expect(counts["pendingEvents"] as? Int == 1, "rating_popup_showed waits in the outbox")
        #expect(counts["unfinishedSessions"] as? Int == 0, "the OSAM session row is not an unfinished session")
    }

    @Test func anALVersionControlOptionalUpdateShowsOnceUntilTheStatusChanges() async throws {
        let fixture = try await Fixture()
        let optional: JSONValue = [
            "message": "Hey! You have a new update.", "status": 1, "url": "https://market.example/app",
        ]
        try await fixture.admin(["version": optional, "raw": true])
        #expect(try await fixture.check() == ("SHOW", "armed", "LAZY"))
        #expect(try await fixture.answer("cancel")["response"] as? String == "CANCELLED")
        #expect(try await fixture.check() == ("DISMISSED", "dont-show-again", nil))
        try await fixture.admin(["version": ["status": 0]])
        #expect(try await fixture.check() == ("DISMISSED", "mode-none", nil))
        try await fixture.admin(["version": optional])
        #expect(try await fixture.check() == ("SHOW", "armed", "LAZY"))
    }

    @Test func aRefusingTopicsWebhookFailsTheEventAndRecordsNothing() async throws {
        let fixture = try await Fixture()
        let webhook = fixture.server.url.appending(path: "_control").absoluteString  // answers 400 to a change
        #expect(
            try await ProcessRunner.sclm(["config", "set", "osam.topicsWebhook", webhook], home: fixture.home.path)
                .status
                == 0)
        let app = ["--version-name", "1.0.0", "--language", "es"]
        let failed = try await fixture.sclm(["topics", "first-time-or-update"] + app)
        #expect(failed.status == 1)
        #expect(try #require(try failed.json() as? [String: Any])["response"] as? String == "ERROR")
        #expect(
            try await ProcessRunner.sclm(["config", "unset", "osam.topicsWebhook"], home: fixture.home.path).status == 0
        )
        let retried = try #require(
            try await fixture.sclm(["topics", "first-time-or-update"] + app).json() as? [String: Any])
        #expect(retried["response"] as? String == "SUCCESS")
        #expect(retried["subscribed"] as? [String] == ["e2e_1.0.0_100_ES", "ES"])
    }
}
