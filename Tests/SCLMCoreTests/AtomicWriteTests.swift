import Foundation
import SCLMTestSupport
import Testing

@testable import SCLMCore

/// `FileSystem.writeAtomically` in a folder someone else can write to (a metrics textfile folder, say):
/// what is planted under the names its temporary file could take is never opened, followed or truncated.
@Suite(.tags(.small))
struct AtomicWriteTests {
    @Test func aPlantedSymlinkIsNeverFollowed() throws {
        let folder = TemporaryDirectory(prefix: "sclm-atomic")
        let victim = try folder.write("root-only secret\n", to: "victim")
        chmod(victim, 0o600)
        let target = folder.appending("metrics.prom")
        // The names a writer could predict: the old fixed `<path>.tmp-<pid>` and a few of the same shape.
        for suffix in ["\(getpid())", "0", "1", "XXXXXX"] {
            try FileManager.default.createSymbolicLink(atPath: "\(target).tmp-\(suffix)", withDestinationPath: victim)
        }
        try FileSystem.writeAtomically(Data("sclm_up 1\n".utf8), to: target, mode: 0o644)
        #expect(try String(contentsOfFile: victim, encoding: .utf8) == "root-only secret\n")
        #expect(FileSystem.mode(of: victim).map { $0 & 0o777 } == 0o600)
        #expect(try String(contentsOfFile: target, encoding: .utf8) == "sclm_up 1\n")
        #expect(FileSystem.mode(of: target).map { $0 & 0o777 } == 0o644)
        #expect(!isSymlink(target), "the target is a file of its own, not a link renamed into place")
        let left = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.contains(".tmp-") }
        #expect(left.count == 4, "only the planted links are left: \(left)")
        #expect(left.allSatisfy { isSymlink(folder.appending($0)) }, "\(left)")
    }

    /// A write that fails after its temporary file was made (the target is a folder, so the rename fails)
    /// throws, leaves the target as it was and removes the temporary file.
    @Test func aFailedWriteLeavesNoTemporaryFileBehind() throws {
        let folder = TemporaryDirectory(prefix: "sclm-atomic")
        let target = folder.appending("config.json")
        try FileSystem.makeDirectory(target)
        try folder.write("kept\n", to: "config.json/inside")
        #expect(throws: SCLMError.self) {
            try FileSystem.writeAtomically(Data("{}".utf8), to: target, mode: 0o600)
        }
        #expect(FileSystem.isDirectory(target))
        #expect(try String(contentsOfFile: target + "/inside", encoding: .utf8) == "kept\n")
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path) == ["config.json"])
    }

    /// A write into a folder that does not exist throws and creates nothing.
    @Test func aWriteIntoAMissingFolderCreatesNothing() throws {
        let folder = TemporaryDirectory(prefix: "sclm-atomic")
        #expect(throws: SCLMError.self) {
            try FileSystem.writeAtomically(Data("{}".utf8), to: folder.appending("missing/config.json"))
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path).isEmpty)
    }

    private func isSymlink(_ path: String) -> Bool {
        var info = stat()
        return lstat(path, &info) == 0 && (info.st_mode & S_IFMT) == S_IFLNK
    }
}
