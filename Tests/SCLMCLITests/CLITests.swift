import Foundation
import SCLMCommands
import SCLMCore
import SCLMTestSupport
import Testing

/// The built `sclm` binary driven as a user would: arguments in, stdout/stderr/exit status out.
@Suite(.tags(.large)) struct CLITests {
    @Test func rootHelpListsCommandsAndGlobalOptions() async throws {
        let result = try await ProcessRunner.sclm(["--help"])
        #expect(result.status == 0)
        for text in [
            "OVERVIEW:", "USAGE: sclm <subcommand>", "SUBCOMMANDS:", "status", "config", "--home <dir>", "--json",
        ] {
            #expect(result.stdout.contains(text), "\(text)")
        }
        #expect(result.stderr.isEmpty)
    }

    @Test func helpSubcommandAndHelpFlagPrintTheSameText() async throws {
        let viaHelp = try await ProcessRunner.sclm(["help", "status"])
        let viaFlag = try await ProcessRunner.sclm(["status", "--help"])
        let viaShort = try await ProcessRunner.sclm(["status", "-h"])
        #expect(viaHelp.status == 0)
        #expect(viaHelp.stdout.contains("USAGE: sclm status"))
        #expect(viaHelp.stdout == viaFlag.stdout)
        #expect(viaFlag.stdout == viaShort.stdout)
    }

    @Test func statusJSONDescribesAFreshHome() async throws {
        let folder = TemporaryDirectory()
        let home = folder.appending("home")
        let result = try await ProcessRunner.sclm(["status", "--json"], home: home)
        #expect(result.status == 0, "\(result)")
        let object = try #require(try result.json() as? [String: Any])
        #expect(object["home"] as? String == home)
        #expect(object["schemaVersion"] as? Int == 6)
        #expect(object["lastSync"] is NSNull)
        let counts = try #require(object["counts"] as? [String: Int])
        #expect(counts["presentations"] == 0)
        #expect(FileSystem.mode(of: home) == 0o700)
        #expect(FileSystem.mode(of: home + "/sclm.db") == 0o600)
    }

    @Test func aBadFlagPrintsUsageAndExits64() async throws {
        let result = try await ProcessRunner.sclm(["status", "--frobnicate"])
        #expect(result.status == 64)
        #expect(result.stdout.isEmpty)
        #expect(result.stderr.contains("Error: unknown option '--frobnicate'"))
        #expect(result.stderr.contains("Usage: sclm status"))
    }

    @Test func anUnknownCommandExits64() async throws {
        let result = try await ProcessRunner.sclm(["frobnicate"])
        #expect(result.status == 64)
        #expect(result.stderr.contains("unknown command 'frobnicate'"))
    }

    @Test func versionPrintsTheVersion() async throws {
        let result = try await ProcessRunner.sclm(["--version"])
        #expect(result.status == 0)
        #expect(result.stdout == "sclm \(SCLMVersion.current)\n")
    }

    @Test func configSetGetListMasksSecretsAndHonoursTheEnvironment() async throws {
        let folder = TemporaryDirectory()
        let home = folder.appending("home")
        #expect(
            try await ProcessRunner.sclm(["config", "set", "auth.clientSecret", "-"], home: home, stdin: "s3cret\n")
                .status
                == 0)
        #expect(
            try await ProcessRunner.sclm(["config", "set", "api.url", "https://file.example"], home: home).status == 0)
        #expect(FileSystem.mode(of: home + "/config.json") == 0o600)
        let secret = try await ProcessRunner.sclm(["config", "get", "auth.clientSecret"], home: home)
        #expect(secret.stdout == "********\n")
        let list = try await ProcessRunner.sclm(
            ["config", "list", "--json"], home: home, environment: ["SCLM_API_URL": "http://127.0.0.1:1"])
        #expect(!list.stdout.contains("s3cret"))
        let entries = try #require(try list.json() as? [[String: Any]])
        let api = try #require(entries.first { $0["key"] as? String == "api.url" })
        #expect(api["value"] as? String == "http://127.0.0.1:1")
        #expect(api["source"] as? String == "environment")
    }

    /// A 100,000-character value is listed at once (the table was quadratic in it: 20,000 characters took 36 s),
    /// shortened in the table (which stays one line a setting) and whole in `--json`. The 20 s limit only
    /// guards a hang; the listing takes milliseconds.
    @Test func configListShortensALongValueOnlyInItsTable() async throws {
        let folder = TemporaryDirectory()
        let home = folder.appending("home")
        let long = "https://example.com/" + String(repeating: "a", count: 100_000)
        let table = try await ProcessRunner.sclm(
            ["config", "list"], home: home, environment: ["SCLM_API_URL": long], timeout: 20)
        #expect(table.status == 0, "\(table.stderr)")
        let row = try #require(table.stdout.split(separator: "\n").first { $0.hasPrefix("api.url ") }, "\(table)")
        let shown = long.prefix(63) + "…"  // docs/cli.md: a value longer than 64 characters is cut with `…`
        #expect(row.contains(" \(shown)  ") && row.hasSuffix(" environment"), "\(row.prefix(300))")
        let json = try await ProcessRunner.sclm(
            ["config", "list", "--json"], home: home, environment: ["SCLM_API_URL": long], timeout: 20)
        #expect(json.status == 0, "\(json.stderr)")
        let entries = try #require(try json.json() as? [[String: Any]])
        #expect(entries.first { $0["key"] as? String == "api.url" }?["value"] as? String == long)
    }

    @Test(arguments: SettingsCatalog.all.filter { $0.isSecret && $0.isStorable }.map(\.name))
    func configSetTakesASecretOnlyFromStdin(_ key: String) async throws {
        let folder = TemporaryDirectory()
        let home = folder.appending("home")
        let literal = try await ProcessRunner.sclm(["config", "set", key, "hunter2"], home: home)
        #expect(literal.status == 64, "\(literal)")
        #expect(literal.stderr.contains("\(key) is a secret and is not taken on the command line: give '-'"))
        #expect(literal.stderr.contains("| sclm config set \(key) -"))
        #expect(!literal.stderr.contains("hunter2"))
        #expect(!FileSystem.exists(home + "/config.json"), "nothing was stored")
        let piped = try await ProcessRunner.sclm(["config", "set", key, "-", "--json"], home: home, stdin: "hunter2\n")
        #expect(piped.status == 0, "\(piped)")
        #expect(!piped.stdout.contains("hunter2"))
        #expect(
            String(decoding: FileManager.default.contents(atPath: home + "/config.json") ?? Data(), as: UTF8.self)
                .contains("hunter2"))
    }

    @Test func configRejectsUnknownKeysWithTheKnownOnes() async throws {
        let folder = TemporaryDirectory()
        let result = try await ProcessRunner.sclm(["config", "get", "api.uri"], home: folder.path)
        #expect(result.status == 64)
        #expect(result.stderr.contains("unknown setting 'api.uri'"))
        #expect(result.stderr.contains("api.url"))
    }

    @Test func aStorageErrorExits74WithAJSONErrorObject() async throws {
        let folder = TemporaryDirectory()
        let blocker = try folder.write("not a folder", to: "home")
        let result = try await ProcessRunner.sclm(["status", "--json"], home: blocker)
        #expect(result.status == 74)
        #expect(result.stderr.hasPrefix("Error: "))
        let object = try #require(try result.json() as? [String: [String: Any]])
        #expect(object["error"]?["category"] as? String == "storage")
        #expect(object["error"]?["exitCode"] as? Int == 74)
    }

    @Test func aDatabaseFromANewerSclmIsRefusedClearly() async throws {
        let folder = TemporaryDirectory()
        #expect(try await ProcessRunner.sclm(["status"], home: folder.path).status == 0)
        _ = try ProcessRunner.run(
            "/usr/bin/env",
            [
                "python3", "-c", "import sqlite3,sys; sqlite3.connect(sys.argv[1]).execute('PRAGMA user_version = 42')",
                folder.appending("sclm.db"),
            ])
        let result = try await ProcessRunner.sclm(["status"], home: folder.path)
        #expect(result.status == 74)
        #expect(result.stderr.contains("schema version 42"))
    }
}
