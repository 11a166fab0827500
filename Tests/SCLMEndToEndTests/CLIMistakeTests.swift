import Foundation
import SCLMCore
import SCLMTestSupport
import Testing

/// Mistakes on the command line are caught when they are made, with the accepted form or the nearest name.
@Suite(.tags(.large)) struct CLIMistakeTests {
    struct SetCase: Sendable, CustomTestStringConvertible {
        let key: String
        let value: String
        let accepted: String
        var testDescription: String { "\(key) \(value)" }
    }

    static let badValues = [
        SetCase(key: "sync.jobs", value: "abc", accepted: "sync.jobs must be a whole number from 1 to 64"),
        SetCase(key: "sync.jobs", value: "0", accepted: "sync.jobs must be a whole number from 1 to 64"),
        SetCase(key: "sync.jobs", value: "100000", accepted: "sync.jobs must be a whole number from 1 to 64"),
        SetCase(key: "bridge.latitude", value: "999", accepted: "bridge.latitude must be a number from -90 to 90"),
        SetCase(key: "bridge.longitude", value: "east", accepted: "bridge.longitude must be a number from -180 to 180"),
        SetCase(key: "http.retries", value: "1000", accepted: "http.retries must be a whole number from 0 to 100"),
        SetCase(
            key: "sync.blobProxyFallback", value: "maybe", accepted: "sync.blobProxyFallback must be true or false"),
        SetCase(
            key: "osam.versionCode", value: "abc", accepted: "osam.versionCode must be a whole number of at least 1"),
        SetCase(key: "osam.platform", value: "windows", accepted: "osam.platform must be IOS or ANDROID"),
        SetCase(key: "api.url", value: "not-a-url", accepted: "api.url must be an http(s) URL"),
        SetCase(key: "sync.contentPolicy", value: "maybe", accepted: "sync.contentPolicy must be install or refuse"),
        SetCase(
            key: "bridge.httpAllowedHosts", value: "10.0.0.0/99",
            accepted: "bridge.httpAllowedHosts cannot be read: '10.0.0.0/99' is not a host name"),
    ]

    @Test(arguments: badValues) func configSetRefusesAValueItsReaderWouldRefuse(_ bad: SetCase) async throws {
        let folder = TemporaryDirectory()
        let result = try await ProcessRunner.sclm(
            ["config", "set", bad.key, bad.value], home: folder.appending("home"))
        #expect(result.status == 64, "\(result)")
        #expect(result.stderr.contains(bad.accepted), "\(result)")
        let stored = (try? String(contentsOfFile: folder.appending("home/config.json"), encoding: .utf8)) ?? ""
        #expect(!stored.contains(bad.value))
    }

    @Test func configSetStoresAChoiceInTheSpellingTheReaderUses() async throws {
        let folder = TemporaryDirectory()
        let home = folder.appending("home")
        #expect(try await ProcessRunner.sclm(["config", "set", "osam.platform", "ios"], home: home).status == 0)
        #expect(try await ProcessRunner.sclm(["config", "get", "osam.platform"], home: home).stdout == "IOS\n")
    }

    @Test func aReaderRefusesABadValueFromTheEnvironmentWithTheSameRule() async throws {
        let folder = TemporaryDirectory()
        let result = try await ProcessRunner.sclm(
            ["osam", "rating", "--package", "p", "--platform", "IOS"], home: folder.appending("home"),
            environment: ["SCLM_OSAM_ENDPOINT": "nope"])
        #expect(result.status == 64, "\(result)")
    }

    @Test func syncRetryCannotGoWithMetadataOnly() async throws {
        let folder = TemporaryDirectory()
        let result = try await ProcessRunner.sclm(
            ["sync", "--metadata-only", "--retry"], home: folder.appending("home"))
        #expect(result.status == 64, "\(result)")
        #expect(result.stderr.contains("--retry tries content again; it cannot go with --metadata-only"), "\(result)")
    }

    /// The packaged timer runs `sync --skip-unconfigured` from the installation on: before the admin set
    /// auth.clientId, one line and exit 0 (not a failed unit); a plain `sync` still says what is missing (exit 64).
    @Test func syncSkipUnconfiguredEndsAnUnconfiguredHomesRunWithOneLine() async throws {
        let folder = TemporaryDirectory()
        let home = folder.appending("home")
        let skipped = try await ProcessRunner.sclm(["sync", "--skip-unconfigured"], home: home)
        #expect(skipped.status == 0, "\(skipped)")
        #expect(
            skipped.stdout == "sclm is not configured yet (auth.clientId is not set): nothing to sync\n", "\(skipped)")
        #expect(skipped.stderr.isEmpty, "\(skipped)")
        #expect(try await ProcessRunner.sclm(["sync"], home: home).status == 64)
    }

    @Test func aNegativeNumberIsAValueNotAnOption() async throws {
        let folder = TemporaryDirectory()
        let positional = try await ProcessRunner.sclm(["show", "-5"], home: folder.appending("home"))
        #expect(!positional.stderr.contains("unknown option"), "\(positional)")
        #expect(positional.stderr.contains("presentation -5 is not stored"), "\(positional)")
        let value = try await ProcessRunner.sclm(["osam", "rating", "--now", "-5"], home: folder.appending("home"))
        #expect(value.status == 64)
        #expect(value.stderr.contains("--now needs an integer at least 0, got '-5'"), "\(value)")
    }

    @Test func anUnknownCommandOrOptionSuggestsTheNearest() async throws {
        let command = try await ProcessRunner.sclm(["synk"])
        #expect(command.status == 64)
        #expect(command.stderr.contains("unknown command 'synk'; did you mean `sync`?"), "\(command)")
        let sub = try await ProcessRunner.sclm(["config", "sett"])
        #expect(sub.stderr.contains("did you mean `set`?"), "\(sub)")
        let swapped = try await ProcessRunner.sclm(["snyc"])
        #expect(swapped.stderr.contains("unknown command 'snyc'; did you mean `sync`?"), "\(swapped)")
        let swappedSub = try await ProcessRunner.sclm(["config", "gte"])
        #expect(swappedSub.stderr.contains("did you mean `get`?"), "\(swappedSub)")
        let help = try await ProcessRunner.sclm(["--home", "/nonexistent", "help", "vaildate"])
        #expect(help.stderr.contains("did you mean `validate`?"), "\(help)")
        let option = try await ProcessRunner.sclm(["sync", "--jbs", "2"])
        #expect(option.stderr.contains("did you mean `--jobs`?"), "\(option)")
        let setting = try await ProcessRunner.sclm(["config", "get", "sync.job"])
        #expect(setting.stderr.contains("unknown setting 'sync.job'; did you mean `sync.jobs`?"), "\(setting)")
        let far = try await ProcessRunner.sclm(["frobnicate"])
        #expect(!far.stderr.contains("did you mean"))
    }

    @Test func usageShowsRequiredOptionsAsRequired() async throws {
        let result = try await ProcessRunner.sclm(["bridge", "--help"])
        #expect(result.stdout.contains("USAGE: sclm bridge --presentation <id> [--slide <name>]"), "\(result)")
        let answer = try await ProcessRunner.sclm(["osam", "version-control-answer", "--help"])
        #expect(answer.stdout.contains(" --choice <ok|cancel|dismiss> "), "\(answer)")
    }

    @Test func validateOnAFolderOfPackagesChecksEachPackageAndSkipsTheRest() async throws {
        // The assembled demo decks: a folder of packages beside clients.json, which is not one.
        let result = try await ProcessRunner.sclm(["validate", "--json", SampleContent.assembledPath])
        #expect(result.status == 0, "\(result)")
        let report = try #require(try result.json() as? [String: Any])
        let packages = try #require(report["packages"] as? [[String: Any]])
        let paths = packages.compactMap { ($0["path"] as? String).map { URL(fileURLWithPath: $0).lastPathComponent } }
        #expect(
            paths.count >= 5 && paths.contains("cardiora-detail-aid") && !paths.contains("clients.json"), "\(paths)")
        #expect(result.stderr.contains("/clients.json: not a package"), "\(result)")
    }

    @Test func aProxyURLWithAPasswordIsRefusedWhenSetAndNeverShown() async throws {
        let folder = TemporaryDirectory()
        let home = folder.appending("home")
        let refused = try await ProcessRunner.sclm(
            ["config", "set", "http.proxy", "http://user:s3cret@proxy:3128"], home: home)
        #expect(refused.status == 64, "\(refused)")
        #expect(refused.stderr.contains("http.proxyCredentials"), "\(refused)")
        #expect(!refused.stderr.contains("s3cret"), "\(refused)")
        #expect(
            try await ProcessRunner.sclm(["config", "set", "http.proxy", "http://proxy:3128"], home: home).status == 0)
        // A hand-edited config.json and the environment are shown without the password, and refused on use.
        try Data(#"{"http.proxy":"http://user:s3cret@proxy:3128"}"#.utf8).write(
            to: URL(fileURLWithPath: home + "/config.json"))
        let environment = ["SCLM_API_URL": "https://admin:hunter2@api.example"]
        for arguments in [["config", "get", "http.proxy"], ["config", "list"], ["config", "list", "--json"]] {
            let shown = try await ProcessRunner.sclm(arguments, home: home, environment: environment)
            #expect(!shown.stdout.contains("s3cret") && !shown.stdout.contains("hunter2"), "\(shown)")
        }
        #expect(
            try await ProcessRunner.sclm(["config", "get", "http.proxy"], home: home).stdout
                == "http://user:********@proxy:3128\n")
        let used = try await ProcessRunner.sclm(["sync"], home: home)
        #expect(used.status == 64 && used.stderr.contains("http.proxyCredentials"), "\(used)")
    }

    /// One limit, declared once with its setting, refused in the same words wherever the value arrives:
    /// `sclm config set`, a hand-edited `config.json`, the environment and the command-line flag.
    @Test func oneLimitIsRefusedAlikeAtEveryEntryPoint() async throws {
        let folder = TemporaryDirectory()
        let home = folder.appending("home")
        try FileManager.default.createDirectory(atPath: home, withIntermediateDirectories: true)
        let check = ["osam", "version-control", "--package", "p", "--platform", "IOS", "--version-code", "1"]
        let refusal = "must be an http(s) URL such as https://host.example, got 'ftp://x'"
        let set = try await ProcessRunner.sclm(["config", "set", "osam.endpoint", "ftp://x"], home: home)
        try Data(#"{"osam.endpoint":"ftp://x"}"#.utf8).write(to: URL(fileURLWithPath: home + "/config.json"))
        let file = try await ProcessRunner.sclm(check, home: home)
        try FileManager.default.removeItem(atPath: home + "/config.json")
        let environment = try await ProcessRunner.sclm(
            check, home: home, environment: ["SCLM_OSAM_ENDPOINT": "ftp://x"])
        let flag = try await ProcessRunner.sclm(check + ["--endpoint", "ftp://x"], home: home)
        for (entry, result) in [("set", set), ("file", file), ("environment", environment), ("flag", flag)] {
            #expect(result.status == 64 && result.stderr.contains(refusal), "\(entry): \(result)")
        }
        #expect(set.stderr.contains("osam.endpoint \(refusal)") && file.stderr.contains("osam.endpoint \(refusal)"))
        #expect(environment.stderr.contains("fix SCLM_OSAM_ENDPOINT in the environment"), "\(environment)")
        #expect(flag.stderr.contains("--endpoint \(refusal) (as osam.endpoint)"), "\(flag)")
    }

    @Test func aHandEditedValueOutOfRangeIsRefusedWithTheFlagsLimits() async throws {
        let folder = TemporaryDirectory()
        let home = folder.appending("home")
        try FileManager.default.createDirectory(atPath: home, withIntermediateDirectories: true)
        try Data(#"{"sync.jobs":"0","api.url":"http://127.0.0.1:9"}"#.utf8).write(
            to: URL(fileURLWithPath: home + "/config.json"))
        let stored = try await ProcessRunner.sclm(["sync"], home: home)
        #expect(stored.status == 64 && stored.stderr.contains("sync.jobs must be a whole number from 1 to 64, got '0'"))
        let flag = try await ProcessRunner.sclm(["sync", "--jobs", "65"], home: home)
        #expect(
            flag.status == 64 && flag.stderr.contains("--jobs must be a whole number from 1 to 64, got '65'"),
            "\(flag)")
        try Data(#"{"osam.versionCode":"0"}"#.utf8).write(to: URL(fileURLWithPath: home + "/config.json"))
        let osam = try await ProcessRunner.sclm(["osam", "app-info"], home: home)
        #expect(osam.status == 64 && osam.stderr.contains("osam.versionCode must be a whole number of at least 1"))
    }

    @Test func jsonUsageErrorsPrintTheErrorObject() async throws {
        for arguments in [
            ["--json", "sync", "--jobs", "abc"], ["--json", "bogus"], ["config", "set", "sync.jobs", "0", "--json"],
        ] {
            let result = try await ProcessRunner.sclm(arguments)
            #expect(result.status == 64, "\(result)")
            let object = try #require(try result.json() as? [String: Any], "\(arguments): \(result)")
            let error = try #require(object["error"] as? [String: Any])
            #expect(error["category"] as? String == "usage" && error["exitCode"] as? Int == 64, "\(object)")
            #expect((error["message"] as? String)?.isEmpty == false)
        }
    }
}
