import Foundation
import SCLMCore
import SCLMTestSupport
import Testing

/// A home on a small disk (a tmpfs of a fixed size in a mount namespace of the test's own, see ``MountNamespace``).
@Suite(.tags(.large), .timeLimit(.minutes(2)), .enabled(if: MountNamespace.isAvailable)) struct SmallDiskTests {
    /// Syncs `arguments` into a fresh home on a tmpfs of `megabytes` MiB, after a login, against `server`.
    static func sync(_ arguments: [String], megabytes: Int, server: DevServer, before: [[String]] = []) async throws
        -> (result: ProcessResult, home: String)
    {
        let folder = TemporaryDirectory()
        let home = folder.appending("home")
        try FileSystem.makeDirectory(home)
        let result = try await MountNamespace.sclm(
            ["sync"] + arguments, home: home, mount: .tmpfs(megabytes: megabytes),
            before: [["login", "--service"]] + before, environment: server.environment)
        return (result, home)
    }

    /// Issue 38: a fixed 64 MiB reserve kept a 40 MiB home from ever installing anything; the default reserve
    /// is now scaled to the package.
    @Test func aFortyMiBHomeInstallsASmallPackage() async throws {
        let server = try await DevServer.start(["--quiet"])
        let (result, _) = try await Self.sync(["--presentation", "103"], megabytes: 40, server: server)
        #expect(result.status == 0, "\(result)")
        #expect(try await server.stats().totalBlobBytes > 0)
    }

    /// Three 16 MiB packages cannot fit in 40 MiB: the sync says so before any download and fetches nothing
    /// (it used to download two of them and keep their zips in `cache/` for good).
    @Test func aPlanThatCannotFitFetchesNothingAndSaysWhatIsMissing() async throws {
        let server = try await DevServer.start([
            "--quiet", "--synthetic-clients", "1", "--synthetic-presentations", "3", "--synthetic-size", "16M",
        ])
        let (result, home) = try await Self.sync([], megabytes: 40, server: server)
        #expect(result.status == 1, "\(result)")
        let output = result.stdout + result.stderr
        #expect(output.contains("not enough disk space in \(home): this sync needs 112.0 MiB"), "\(result)")
        #expect(output.contains("missing; nothing was downloaded"), "\(result)")
        #expect(try await server.stats().totalBlobBytes == 0, "no package was fetched")
    }

    /// A fixed reserve (`sync.diskReserve`) larger than the disk refuses even a small package, naming the setting.
    @Test func theFreeSpaceMessageNamesTheReserveSetting() async throws {
        let server = try await DevServer.start(["--quiet"])
        let (result, home) = try await Self.sync(
            ["--presentation", "103"], megabytes: 20, server: server,
            before: [["config", "set", "sync.diskReserve", "64"]])
        #expect(result.status == 1, "\(result)")
        let output = result.stdout + result.stderr
        #expect(output.contains("not enough disk space in \(home): this sync needs"), "\(result)")
        #expect(output.contains("64.0 MiB kept free by sync.diskReserve"), "\(result)")
        #expect(try await server.stats().totalBlobBytes == 0)
    }
}
