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
        SetCase(key: "sync.jobs", value: "abc", accepted: "sync.jobs must be a whole number of at least 0"),
        SetCase(
            key: "osam.versionCode", value: "abc", accepted: "osam.versionCode must be a whole number of at least 1"),
        SetCase(key: "osam.platform", value: "windows", accepted: "osam.platform must be IOS or ANDROID"),
        SetCase(key: "api.url", value: "not-a-url", accepted: "api.url must be an http(s) URL"),
        SetCase(key: "sync.contentPolicy", value: "maybe", accepted: "sync.contentPolicy must be install or refuse"),
        SetCase(key: "bridge.httpAllowedHosts", value: "10.0.0.0/99", accepted: "bridge.httpAllowedHosts: "),
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
}
