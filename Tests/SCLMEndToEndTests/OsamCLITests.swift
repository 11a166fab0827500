import Foundation
import SCLMCore
import SCLMTestSupport
import Testing

/// `sclm osam …` through the built binary, without a backend: usage, offline paths, state between processes.
@Suite(.tags(.large)) struct OsamCLITests {
    static let day: Int64 = 86_400_000
    static let start: Int64 = 1_750_000_000_000

    static func json(_ result: ProcessResult) throws -> [String: Any] {
        try #require(try result.json() as? [String: Any], "\(result)")
    }

    @Test func ratingIsDueAfterFiveOpeningsAndTwoDaysOfflineAcrossProcesses() async throws {
        let home = TemporaryDirectory()
        let base = ["osam", "rating", "--package", "cat.bcn.demo", "--platform", "android", "--offline", "--json"]
        var responses: [String] = []
        for (index, offset) in [0, 1, 2, 3, 2 * Self.day, 2 * Self.day + 1].enumerated() {
            let result = try await ProcessRunner.sclm(
                base + ["--now", String(Self.start + Int64(index) + offset)], home: home.path)
            #expect(result.status == 0, "\(result)")
            responses.append(try Self.json(result)["response"] as? String ?? "")
        }
        #expect(responses == ["DISMISSED", "DISMISSED", "DISMISSED", "DISMISSED", "ACCEPTED", "DISMISSED"])
    }

    @Test func offlineWithoutACachedRecordIsDismissed() async throws {
        let home = TemporaryDirectory()
        let result = try await ProcessRunner.sclm(
            [
                "osam", "version-control", "--package", "p", "--platform", "IOS", "--version-code", "3", "--offline",
                "--json",
            ], home: home.path)
        #expect(result.status == 0)
        #expect(result.stdout == #"{"alert":null,"reason":"offline-never-fetched","result":"DISMISSED"}"# + "\n")
    }

    @Test func answeringWithoutAnAlertExits1WithAClearMessage() async throws {
        let home = TemporaryDirectory()
        let result = try await ProcessRunner.sclm(
            ["osam", "version-control-answer", "--package", "p", "--platform", "IOS", "--choice", "ok"],
            home: home.path)
        #expect(result.status == 1)
        #expect(result.stderr.contains("no version-control alert of p is waiting for an answer"))
    }

    struct UsageCase: Sendable, CustomTestStringConvertible {
        let arguments: [String]
        let message: String
        var testDescription: String { arguments.joined(separator: " ") }
    }

    static let usage: [UsageCase] = [
        UsageCase(
            arguments: ["osam", "version-control", "--platform", "IOS", "--version-code", "1"],
            message: "no package: pass --package"),
        UsageCase(
            arguments: ["osam", "version-control", "--package", "p", "--version-code", "1"], message: "no platform"),
        UsageCase(
            arguments: ["osam", "version-control", "--package", "p", "--platform", "WINDOWS"],
            message: "platform must be IOS or ANDROID"),
        UsageCase(
            arguments: ["osam", "version-control", "--package", "p", "--platform", "IOS"], message: "no version code"),
        UsageCase(
            arguments: ["osam", "version-control", "--package", "p", "--platform", "IOS", "--version-code", "1.2.3"],
            message: "--version-code must be a whole number of at least 1, got '1.2.3'"),
        UsageCase(
            arguments: ["osam", "version-control", "--package", "p", "--platform", "IOS", "--version-code", "0"],
            message: "--version-code must be a whole number of at least 1, got '0' (as osam.versionCode)"),
        UsageCase(
            arguments: ["osam", "version-control", "--package", "p", "--platform", "IOS", "--version-code", "1"],
            message: "no OSAM endpoint"),
        UsageCase(
            arguments: [
                "osam", "version-control", "--package", "p", "--platform", "IOS", "--version-code", "1", "--endpoint",
                "ftp://x",
            ], message: "must be an http(s) URL"),
        UsageCase(arguments: ["osam", "version-control-answer", "--package", "p"], message: "missing --choice"),
        UsageCase(
            arguments: ["osam", "version-control-answer", "--package", "p", "--choice", "later"],
            message: "--choice must be one of ok, cancel, dismiss"),
        UsageCase(
            arguments: ["osam", "rating", "--package", "p", "--platform", "IOS", "--now", "soon"],
            message: "--now needs an integer"),
        UsageCase(
            arguments: ["osam", "topics", "subscribe", "bad topic", "--package", "p"], message: "not a valid topic name"
        ),
    ]

    @Test(arguments: usage) func badInputExits64NamingTheProblem(_ test: UsageCase) async throws {
        let home = TemporaryDirectory()
        let result = try await ProcessRunner.sclm(test.arguments, home: home.path)
        #expect(result.status == 64, "\(result)")
        #expect(result.stderr.contains(test.message), "\(result.stderr)")
        #expect(result.stdout.isEmpty)
    }

    @Test func configSuppliesTheAppAndFlagsOverrideIt() async throws {
        let home = TemporaryDirectory()
        for (key, value) in [
            ("osam.package", "cat.bcn.demo"), ("osam.platform", "android"), ("osam.versionCode", "42"),
            ("app.version", "4.2.0"),
        ] {
            #expect(try await ProcessRunner.sclm(["config", "set", key, value], home: home.path).status == 0)
        }
        let info = try Self.json(try await ProcessRunner.sclm(["osam", "app-info", "--json"], home: home.path))
        #expect(
            info as NSDictionary == ["appName": "sclm", "appVersionName": "4.2.0", "appVersionCode": "42"]
                as NSDictionary)
        let overridden = try Self.json(
            try await ProcessRunner.sclm(
                ["osam", "app-info", "--json", "--version-code", "43", "--app-name", "Kiosk"], home: home.path))
        #expect(overridden["appVersionCode"] as? String == "43")
        #expect(overridden["appName"] as? String == "Kiosk")
        let check = try await ProcessRunner.sclm(["osam", "version-control", "--offline", "--json"], home: home.path)
        #expect(check.status == 0, "\(check)")
    }

    @Test func topicStateSurvivesBetweenProcesses() async throws {
        let home = TemporaryDirectory()
        let app = ["--package", "cat.bcn.demo", "--version-code", "100", "--version-name", "1.0.0", "--json"]
        let first = try Self.json(
            try await ProcessRunner.sclm(
                ["osam", "topics", "first-time-or-update", "--language", "ca"] + app, home: home.path))
        #expect(first["response"] as? String == "SUCCESS")
        #expect(first["subscribed"] as? [String] == ["demo_1.0.0_100_CA", "CA"])
        let again = try Self.json(
            try await ProcessRunner.sclm(
                ["osam", "topics", "first-time-or-update", "--language", "ca"] + app, home: home.path))
        #expect(again["response"] as? String == "UNCHANGED")
        let change = try Self.json(
            try await ProcessRunner.sclm(
                ["osam", "topics", "change-language", "--language", "es"] + app, home: home.path))
        #expect(change["subscribed"] as? [String] == ["demo_1.0.0_100_ES", "ES"])
        #expect(change["unsubscribed"] as? [String] == ["demo_1.0.0_100_CA", "CA"])
        let custom = try Self.json(
            try await ProcessRunner.sclm(
                ["osam", "topics", "subscribe", "news", "--package", "cat.bcn.demo", "--json"], home: home.path))
        #expect(
            custom as NSDictionary == ["response": "SUCCESS", "subscribed": ["news"], "unsubscribed": [String]()]
                as NSDictionary)
    }

    @Test func anyLanguageIsAcceptedAndALocaleTagPicksItsLanguage() async throws {
        let app = ["--package", "cat.bcn.demo", "--version-code", "100", "--version-name", "1.0.0", "--json"]
        for (language, expected) in [("ca-ES", "CA"), ("es_ES", "ES"), ("Es", "ES"), ("fr", "EN"), ("", "EN")] {
            let home = TemporaryDirectory()
            let result = try await ProcessRunner.sclm(
                ["osam", "topics", "first-time-or-update", "--language", language] + app, home: home.path)
            #expect(result.status == 0, "--language '\(language)': \(result)")
            #expect(
                try Self.json(result)["subscribed"] as? [String] == ["demo_1.0.0_100_\(expected)", expected],
                "--language '\(language)'")
        }
        let home = TemporaryDirectory()
        let check = try await ProcessRunner.sclm(
            [
                "osam", "version-control", "--package", "p", "--platform", "IOS", "--version-code", "3", "--offline",
                "--language", "fr", "--json",
            ],
            home: home.path)
        #expect(check.status == 0, "an unknown language is English, not a usage error: \(check)")
    }

    @Test func anAppUpdateSubscribesTheNewVersionTopicAndTheLanguageTopicAgain() async throws {
        let home = TemporaryDirectory()
        let event = [
            "osam", "topics", "first-time-or-update", "--package", "cat.bcn.demo", "--language", "ca", "--json",
        ]
        let first = try await ProcessRunner.sclm(
            event + ["--version-code", "100", "--version-name", "1.0.0"], home: home.path)
        #expect(try Self.json(first)["subscribed"] as? [String] == ["demo_1.0.0_100_CA", "CA"])
        let update = try Self.json(
            try await ProcessRunner.sclm(event + ["--version-code", "110", "--version-name", "1.1.0"], home: home.path))
        #expect(update["response"] as? String == "SUCCESS")
        #expect(update["subscribed"] as? [String] == ["demo_1.1.0_110_CA", "CA"])
        #expect(update["unsubscribed"] as? [String] == ["demo_1.0.0_100_CA"])
    }

    @Test func deviceInfoReportsThisMachine() async throws {
        let result = try await ProcessRunner.sclm(["osam", "device-info", "--json"])
        let info = try Self.json(result)
        #expect(Set(info.keys) == ["platformName", "platformVersion", "platformModel"])
        #expect((info["platformName"] as? String)?.isEmpty == false)
    }
}
