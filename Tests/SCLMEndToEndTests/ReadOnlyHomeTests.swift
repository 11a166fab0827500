import Foundation
import SCLMCore
import SCLMStore
import SCLMTestSupport
import Testing

/// A home that cannot be written: read-only commands read it without changing it, writers say so in one line.
///
/// How the home is made read-only: these tests run as root, for whom permission bits do not stop writes (and
/// `chattr +i` would have to be applied to every file SQLite might create). So each `sclm` runs in a mount
/// namespace of its own (``MountNamespace``) in which the home is bind-mounted read-only, exactly what a
/// read-only volume gives: every write fails with `EROFS`, the mount vanishes with the process, and the test's
/// own view stays writable. That needs `CAP_SYS_ADMIN`; without it the suite is skipped.
@Suite(.tags(.large), .timeLimit(.minutes(2)), .enabled(if: MountNamespace.isAvailable)) struct ReadOnlyHomeTests {
    let folder = TemporaryDirectory()
    let server: DevServer
    var home: String { folder.appending("home") }

    init() async throws {
        server = try await DevServer.start(["--quiet"])
        for arguments in [["login", "--service"], ["sync", "--presentation", "103"]] {
            let result = try await ProcessRunner.sclm(
                arguments, home: home, environment: server.environment)
            try #require(result.status == 0, "\(result)")
        }
    }

    /// Runs `sclm ARGUMENTS` with the home mounted read-only.
    private func readOnly(_ arguments: [String]) async throws -> ProcessResult {
        try await MountNamespace.sclm(arguments, home: home, mount: .readOnly, environment: server.environment)
    }

    /// The files of the home with their sizes, to show that nothing changed.
    private func snapshot() -> [String: Int64] {
        var files: [String: Int64] = [:]
        for path in FileManager.default.subpaths(atPath: home) ?? [] {
            files[path] = FileSystem.size(of: home + "/" + path)
        }
        return files
    }

    @Test func readOnlyCommandsWorkAndChangeNothing() async throws {
        let before = snapshot()
        for arguments in [
            ["status"], ["list"], ["show", "103"], ["whoami"], ["content", "path", "103"], ["events", "list"],
        ] {
            let result = try await readOnly(arguments)
            #expect(result.status == 0, "\(arguments): \(result)")
            #expect(result.stderr.isEmpty, "\(arguments): \(result)")
        }
        #expect(try await readOnly(["list"]).stdout.contains("GlucoBalance"))
        #expect(try await readOnly(["content", "path", "103"]).stdout == home + "/content/1/103/sources\n")
        #expect(snapshot() == before)
    }

    @Test func aCheckpointedDatabaseWithoutWALFilesIsReadImmutable() async throws {
        // Closing the last connection checkpoints the WAL and removes -wal and -shm; with the folder read-only,
        // SQLite could not create them again, so sclm opens the file immutable.
        try Database(path: home + "/sclm.db").execute("PRAGMA wal_checkpoint(TRUNCATE)")
        #expect(!FileSystem.exists(home + "/sclm.db-shm"))
        let result = try await readOnly(["show", "103", "--json"])
        #expect(result.status == 0, "\(result)")
        let details = try #require(try result.json() as? [String: Any])
        #expect((details["presentation"] as? [String: Any])?["presentationId"] as? Int == 103)
    }

    @Test(arguments: [
        ("sync", ["sync"]), ("bridge", ["bridge", "--presentation", "103"]),
        ("config set", ["config", "set", "sync.jobs", "2"]),
    ])
    func writersFailWithOneLineNamingTheHome(_ command: String, _ arguments: [String]) async throws {
        let result = try await readOnly(arguments)
        #expect(result.status == ErrorCategory.storage.exitCode, "\(result)")
        #expect(
            result.stderr
                == "Error: the sclm home \(home) is read-only, and `sclm \(command)` needs to write there: make it "
                + "writable, or point --home or SCLM_HOME at a writable folder\n")
        #expect(result.stdout.isEmpty)
    }
}
