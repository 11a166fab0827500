import Foundation
import SCLMCore
import SCLMTestSupport
import Testing

/// A damaged `sclm.db`: the error says what replacing it loses and that a login comes before the sync, and
/// following that advice gets the home working again.
@Suite(.tags(.large), .timeLimit(.minutes(2))) struct DamagedDatabaseTests {
    @Test func theAdviceNamesWhatIsLostAndLeadsToAWorkingHome() async throws {
        let server = try await DevServer.start(["--quiet"])
        let folder = TemporaryDirectory()
        let home = folder.appending("home")
        func sclm(_ arguments: [String]) async throws -> ProcessResult {
            try await ProcessRunner.sclm(arguments, home: home, environment: server.environment)
        }
        try FileSystem.makeDirectory(home)
        try FileSystem.writeAtomically(Data(repeating: 0x5A, count: 8192), to: home + "/sclm.db")

        let damaged = try await sclm(["list"])
        #expect(damaged.status == ErrorCategory.storage.exitCode, "\(damaged)")
        for words in [
            "the file is damaged", "analytics sessions and events not yet sent", "the login",
            "run `sclm login` and `sclm sync`",
        ] {
            #expect(damaged.stderr.contains(words), "\(words): \(damaged.stderr)")
        }

        try FileManager.default.moveItem(atPath: home + "/sclm.db", toPath: home + "/sclm.db.damaged")
        let login = try await sclm(["login", "--service"])
        #expect(login.status == 0, "\(login)")
        let sync = try await sclm(["sync", "--metadata-only"])
        #expect(sync.status == 0, "\(sync)")
    }
}
