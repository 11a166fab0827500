import Foundation
import SCLMCore
import SCLMTestSupport
import Testing

/// Every `osam.*` command through the built `sclm bridge` against the dev-server's OSAM endpoints.
@Suite(.tags(.large), .timeLimit(.minutes(2))) struct OsamBridgeTests {
    static let package = "cat.bcn.bridge"

    /// A home with an installed presentation and `osam.*` settings pointing at a dev-server, and the bridge on it.
    struct Session {
        let server: DevServer
        let folder = TemporaryDirectory(prefix: "sclm-osam-bridge")
        let home: Home
        let bridge: BridgeProcess

        init(settings: [(String, String)] = []) async throws {
            server = try DevServer(["--quiet"])
            home = Home(root: folder.appending("home"))
            try InstalledPresentationFixture().install(in: home)
            let defaults = [
                ("osam.endpoint", server.url.absoluteString), ("osam.package", OsamBridgeTests.package),
                ("osam.platform", "IOS"), ("osam.versionCode", "7"), ("osam.versionName", "2.0.0"),
                ("app.name", "Kiosk"),
            ]
            for (key, value) in defaults + settings {
                #expect(try await ProcessRunner.sclm(["config", "set", key, value], home: home.root).status == 0)
            }
            bridge = try BridgeProcess(
                sclm: ["bridge", "--presentation", "10"], home: home.root, environment: ["LANG": "es_ES.UTF-8"])
            guard await bridge.event("slideChanged") != nil else {
                throw SCLMError(.internal, "bridge did not start: \(bridge.stderr)")
            }
        }

        func admin(_ fields: [String: JSONValue]) async throws {
            var action: [String: JSONValue] = [
                "action": "osam", "package": .string(OsamBridgeTests.package), "platform": "IOS",
            ]
            action.merge(fields) { _, new in new }
            try await server.control(.object(action))
        }

        /// The response to `command` (status 200 expected) as its `Data`.
        func data(_ command: String, _ data: [String: Any] = [:]) async throws -> [String: Any] {
            let guid = UUID().uuidString
            bridge.send(json: ["Command": command, "Data": data, "GUID": guid])
            let response = try #require(await bridge.response(to: guid), "no answer to \(command): \(bridge.stderr)")
            #expect(response["ErrorCode"] as? Int == 200, "\(command): \(response)")
            return try #require(response["Data"] as? [String: Any], "\(command): \(response)")
        }
    }

    static func lazy(message: String = "Update, please") -> JSONValue {
        [
            "versionCode": 8, "versionName": "2.1.0", "comparisonMode": "LAZY",
            "title": ["ca": "Nova", "es": "Nueva", "en": "New"],
            "message": .string(message), "url": "https://apps.example/bridge",
        ]
    }

    @Test func versionControlShowsEmitsAndWaitsForTheAnswerThenSharesStateWithTheCLI() async throws {
        let session = try await Session()
        try await session.admin(["version": Self.lazy()])
        let shown = try await session.data("osam.versionControl", ["language": "es"])
        #expect(shown["result"] as? String == "SHOW")
        #expect((shown["alert"] as? [String: Any])?["title"] as? String == "Nueva")
        let event = try #require(await session.bridge.event("osamAlert")?["Data"] as? [String: Any])
        #expect(event["mode"] as? String == "LAZY")
        #expect(event["checkboxLabel"] as? String == "No mostrar de nuevo")

        let pending = try await session.data("osam.versionControl", ["language": "es"])
        #expect(pending["result"] as? String == "ERROR")
        #expect(pending["reason"] as? String == "alert-pending")

        let answer = try await session.data("osam.versionControlAnswer", ["choice": "ok", "dontShowAgain": true])
        #expect(answer["response"] as? String == "ACCEPTED")
        #expect(answer["openUrl"] as? String == "https://apps.example/bridge")
        #expect(try await session.data("osam.versionControl")["reason"] as? String == "dont-show-again")

        try await session.admin(["version": Self.lazy(message: "A new message")])
        #expect(try await session.data("osam.versionControl")["result"] as? String == "SHOW", "an admin edit re-arms")
        #expect(
            try await session.data("osam.versionControlAnswer", ["choice": "dismiss"])["response"] as? String
                == "DISMISSED")
        #expect(await session.bridge.finish() == 0)

        let cli = try await ProcessRunner.sclm(["osam", "version-control", "--json"], home: session.home.root)
        #expect(cli.stdout.contains(#""result":"SHOW""#), "dismiss persisted nothing: \(cli)")
    }

    @Test func answersAreCheckedAndMissingRecordsAreErrors() async throws {
        let session = try await Session()
        session.bridge.send(json: ["Command": "osam.versionControlAnswer", "Data": ["choice": "ok"], "GUID": "none"])
        #expect(await session.bridge.response(to: "none")?["ErrorCode"] as? Int == 404)
        session.bridge.send(json: ["Command": "osam.versionControlAnswer", "Data": ["choice": "maybe"], "GUID": "bad"])
        #expect(await session.bridge.response(to: "bad")?["ErrorCode"] as? Int == 400)
        let missing = try await session.data("osam.versionControl")
        #expect(missing["result"] as? String == "ERROR")
        #expect(missing["reason"] as? String == "fetch-failed")
        #expect(await session.bridge.finish() == 0)
    }

    @Test func ratingInformationTopicsTokenAndReachability() async throws {
        let session = try await Session()
        try await session.admin(["rating": ["minutes": 0, "numAperture": 2]])
        #expect(try await session.data("osam.rating")["response"] as? String == "DISMISSED")
        #expect(try await session.data("osam.rating")["response"] as? String == "ACCEPTED")

        let device = try await session.data("osam.deviceInformation")
        #expect(Set(device.keys) == ["platformName", "platformVersion", "platformModel"])
        let app = try await session.data("osam.appInformation")
        #expect(
            app as NSDictionary == ["appName": "Kiosk", "appVersionName": "2.0.0", "appVersionCode": "7"]
                as NSDictionary)

        let first = try await session.data("osam.firstTimeOrUpdateEvent", ["language": "CA"])
        #expect(first["subscribed"] as? [String] == ["bridge_2.0.0_7_CA", "CA"])
        let change = try await session.data("osam.changeLanguageEvent", ["language": "en"])
        #expect(change["subscribed"] as? [String] == ["bridge_2.0.0_7_EN", "EN"])
        #expect(change["unsubscribed"] as? [String] == ["bridge_2.0.0_7_CA", "CA"])
        #expect(
            try await session.data("osam.subscribeToCustomTopic", ["topic": "offers"])["response"] as? String
                == "SUCCESS")
        #expect(
            try await session.data("osam.unsubscribeToCustomTopic", ["topic": "offers"])["unsubscribed"] as? [String]
                == ["offers"])
        session.bridge.send(json: [
            "Command": "osam.subscribeToCustomTopic", "Data": ["topic": "no spaces"], "GUID": "t",
        ])
        #expect(await session.bridge.response(to: "t")?["ErrorCode"] as? Int == 400)

        let token = try #require(try await session.data("osam.getToken")["token"] as? String)
        #expect(UUID(uuidString: token) != nil)
        #expect(try await session.data("osam.isOnline")["online"] as? Bool == true)
        session.server.stop()
        #expect(try await session.data("osam.isOnline")["online"] as? Bool == false)
        #expect(await session.bridge.finish() == 0)

        let language = try ProcessRunner.run(
            "/usr/bin/env",
            [
                "python3", "-c",
                "import sqlite3,sys; print(sqlite3.connect(sys.argv[1]).execute(\"SELECT value FROM custom_events WHERE key = 'language_change' ORDER BY created, rowid\").fetchall())",
                session.home.databasePath,
            ])
        #expect(language.stdout.contains(#""language_disp":"ES""#), "the device language comes from LANG: \(language)")
    }

    @Test func theLanguageIsParsedLikeOSAMAndALocaleTagPicksItsLanguage() async throws {
        let session = try await Session()
        try await session.admin(["version": Self.lazy()])
        let cases: [(Any, String)] = [
            ("ca-ES", "Nova"), ("es_ES", "Nueva"), ("EN", "New"), ("fr", "New"), ("", "New"), (42, "New"),
        ]
        for (language, title) in cases {
            let shown = try await session.data("osam.versionControl", ["language": language])
            #expect((shown["alert"] as? [String: Any])?["title"] as? String == title, "language \(language)")
            #expect(
                try await session.data("osam.versionControlAnswer", ["choice": "dismiss"])["response"] as? String
                    == "DISMISSED")
        }
        #expect(await session.bridge.finish() == 0)
    }

    @Test func aDeviceClockBeforeTheLastOKKeepsTheThrottle() async throws {
        let session = try await Session()
        try await session.admin(["version": Self.lazy()])
        let home = session.home.root
        #expect(
            try await ProcessRunner.sclm(["osam", "version-control", "--json"], home: home).stdout.contains(
                #""result":"SHOW""#))
        let later = String(Timestamp.epochMilliseconds(Date()) + 2 * 3_600_000)
        let answer = try await ProcessRunner.sclm(
            ["osam", "version-control-answer", "--choice", "ok", "--now", later], home: home)
        #expect(answer.status == 0, "the OK was given on a clock 2 h ahead: \(answer)")
        let check = try await session.data("osam.versionControl", ["language": "en"])
        #expect(check["result"] as? String == "DISMISSED")
        #expect(check["reason"] as? String == "throttled")
        #expect(await session.bridge.finish() == 0)
    }

    @Test func aRatingRecordForAnUnknownPlatformAnswersError() async throws {
        let session = try await Session()
        try await session.admin(["rating": ["platform": "BLACKBERRY", "minutes": 0, "numAperture": 1]])
        #expect(try await session.data("osam.rating")["response"] as? String == "ERROR")
        try await session.admin(["rating": ["platform": "IOS", "minutes": 0, "numAperture": 1]])
        #expect(try await session.data("osam.rating")["response"] as? String == "ACCEPTED")
        #expect(await session.bridge.finish() == 0)
    }

    @Test func anAppUpdateAnswersTheLanguageTopicAsSubscribedWithTheNewVersionTopic() async throws {
        let session = try await Session()
        let before = try await ProcessRunner.sclm(
            [
                "osam", "topics", "first-time-or-update", "--language", "ca", "--version-code", "6", "--version-name",
                "1.9.0", "--json",
            ],
            home: session.home.root)
        #expect(before.stdout.contains("bridge_1.9.0_6_CA"), "\(before)")
        let update = try await session.data("osam.firstTimeOrUpdateEvent", ["language": "ca"])
        #expect(update["response"] as? String == "SUCCESS")
        #expect(update["subscribed"] as? [String] == ["bridge_2.0.0_7_CA", "CA"])
        #expect(update["unsubscribed"] as? [String] == ["bridge_1.9.0_6_CA"])
        #expect(await session.bridge.finish() == 0)
    }

    @Test func withoutSettingsOSAMAnswers503AndTheRestOfTheBridgeWorks() async throws {
        let folder = TemporaryDirectory()
        let home = Home(root: folder.appending("home"))
        try InstalledPresentationFixture().install(in: home)
        let bridge = try BridgeProcess(sclm: ["bridge", "--presentation", "10"], home: home.root)
        bridge.send(json: ["Command": "osam.versionControl", "Data": [:], "GUID": "v"])
        let response = try #require(await bridge.response(to: "v"))
        #expect(response["ErrorCode"] as? Int == 503)
        #expect((response["ErrorMessage"] as? String)?.contains("sclm config set osam.") == true)
        bridge.send(json: ["Command": "getCurrentSlideName", "Data": [:], "GUID": "s"])
        #expect(await bridge.response(to: "s")?["ErrorCode"] as? Int == 200)
        #expect(await bridge.finish() == 0)
    }
}
