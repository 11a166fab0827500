import Foundation
import SCLMCore
import SCLMTestSupport
import Testing

/// A home on a small disk (a 20 MiB tmpfs in a mount namespace of the test's own, see ``MountNamespace``).
@Suite(.tags(.large), .timeLimit(.minutes(2)), .enabled(if: MountNamespace.isAvailable)) struct SmallDiskTests {
    @Test func theFreeSpaceMessageNamesTheReserve() async throws {
        let server = try await DevServer.start(["--quiet"])
        let folder = TemporaryDirectory()
        let home = folder.appending("home")
        try FileSystem.makeDirectory(home)
        let result = try await MountNamespace.sclm(
            ["sync", "--presentation", "103"], home: home, mount: .tmpfs(megabytes: 20),
            before: [["login", "--service"]],
            environment: server.environment)
        #expect(result.status == 1, "\(result)")
        let output = result.stdout + result.stderr
        #expect(output.contains("not enough disk space in \(home)/content/1/103 to unpack"), "\(result)")
        #expect(output.contains("free, and sclm keeps 64.0 MiB free besides (a fixed reserve, no setting"), "\(result)")
    }
}
