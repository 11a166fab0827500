import Foundation
import SCLMTestSupport
import Testing

@testable import SCLMCore

/// Temporary folders of killed runs are removed by the next run; live ones are kept.
@Suite(.tags(.medium))
struct ScratchFolderTests {
    @Test func sweepRemovesFoldersOfExitedOwnersOnly() throws {
        let base = TemporaryDirectory(prefix: "sclm-scratch")
        let dead = try base.write("2147483646\n", to: "run-dead/owner.pid")
        let alive = try base.write("\(getpid())\n", to: "run-alive/owner.pid")
        let unowned = try base.write("x", to: "run-unowned/file")
        let other = try base.write("2147483646\n", to: "other-dead/owner.pid")
        ScratchFolder.sweep(base.path, prefix: "run-")
        #expect(!FileManager.default.fileExists(atPath: dead))
        #expect(FileManager.default.fileExists(atPath: alive))
        #expect(FileManager.default.fileExists(atPath: unowned))
        #expect(FileManager.default.fileExists(atPath: other))
    }

    @Test func madeFoldersNameTheirOwner() throws {
        let folder = try ScratchFolder.make(prefix: "sclm-scratch-test-")
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let owner = try String(contentsOfFile: folder + "/owner.pid", encoding: .utf8)
        #expect(owner == "\(getpid())\n")
        #expect(FileSystem.mode(of: folder).map { $0 & 0o777 } == 0o700)
    }
}
