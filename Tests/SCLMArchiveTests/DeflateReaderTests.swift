import Foundation
import SCLMArchive
import SCLMCore
import SCLMTestSupport
import Testing

/// Deflated entries are inflated by ISA-L: the same bytes and CRCs as libarchive gave, and damaged or cut-off
/// deflate data is reported as such, on one worker and several.
@Suite(.tags(.medium)) struct DeflateReaderTests {
    /// A script large enough to take many output blocks, deflated, beside the valid package.
    private static func package(in folder: TemporaryDirectory) throws -> (zip: String, script: [UInt8]) {
        var builder = PackageFixtures.validZip()
        let script = (0..<40_000).map { "var v\($0) = \($0 * 7 % 1_000);\n" }.joined()
        builder.file("js/big.js", script)
        let zip = folder.appending("package.zip")
        try builder.write(to: zip)
        return (zip, Array(script.utf8))
    }

    /// The offsets of `name`'s deflate data and its central-directory record in `bytes`.
    private static func dataOffset(of name: String, in bytes: ZipBytes) throws -> (data: Int, central: Int) {
        let (local, central) = try bytes.headers(of: name)
        let nameLength = Int(bytes.bytes[local + 26]) | Int(bytes.bytes[local + 27]) << 8
        let extraLength = Int(bytes.bytes[local + 28]) | Int(bytes.bytes[local + 29]) << 8
        return (local + 30 + nameLength + extraLength, central)
    }

    @Test(arguments: [1, 3])
    func deflatedEntriesUnpackByteIdentically(workers: Int) async throws {
        let folder = TemporaryDirectory()
        let (zip, script) = try Self.package(in: folder)
        var policy = Policy()
        policy.workerCount = workers
        let staged = try await PackageExtractor(policy: policy, isDurable: false).extract(
            zipAt: zip, stagingFor: folder.appending("sources"))
        defer { try? FileSystem.removeTree(staged.stagingPath) }
        #expect(FileManager.default.contents(atPath: staged.stagingPath + "/js/big.js") == Data(script))
        for (path, bytes) in PackageFixtures.validFiles {
            #expect(FileManager.default.contents(atPath: staged.stagingPath + "/" + path) == Data(bytes), "\(path)")
        }
    }

    @Test func damagedDeflateDataIsCorrupt() async throws {
        let folder = TemporaryDirectory()
        let (zip, _) = try Self.package(in: folder)
        var bytes = try ZipBytes(contentsOf: zip)
        // A first block header of 0b111: the last block, of the reserved type 3, which no inflater accepts.
        bytes.bytes[try Self.dataOffset(of: "js/big.js", in: bytes).data] = 0xFF
        try bytes.write(to: zip)
        let report = try await PackageValidator().validate(zip)
        let finding = try #require(report.findings.first { $0.path == "js/big.js" }, "\(report.findings)")
        #expect(finding.rule == .archiveCorrupt, "\(report.findings)")
        #expect(finding.message.contains("deflate data is damaged"))
    }

    @Test func deflateDataCutShortIsTruncated() async throws {
        let folder = TemporaryDirectory()
        let (zip, _) = try Self.package(in: folder)
        var bytes = try ZipBytes(contentsOf: zip)
        let (_, central) = try Self.dataOffset(of: "js/big.js", in: bytes)
        // The central directory declares half the compressed size: the stream does not end within it.
        let size =
            UInt32(bytes.bytes[central + 20]) | UInt32(bytes.bytes[central + 21]) << 8
            | UInt32(bytes.bytes[central + 22]) << 16 | UInt32(bytes.bytes[central + 23]) << 24
        withUnsafeBytes(of: (size / 2).littleEndian) {
            bytes.bytes.replaceSubrange((central + 20)..<(central + 24), with: $0)
        }
        try bytes.write(to: zip)
        let report = try await PackageValidator().validate(zip)
        let finding = try #require(report.findings.first { $0.path == "js/big.js" }, "\(report.findings)")
        #expect(finding.rule == .archiveTruncated, "\(report.findings)")
    }

    @Test func randomBytesAsDeflateDataEndInAFinding() async throws {
        let folder = TemporaryDirectory()
        let (zip, _) = try Self.package(in: folder)
        let original = try ZipBytes(contentsOf: zip)
        let (data, central) = try Self.dataOffset(of: "js/big.js", in: original)
        let size =
            Int(original.bytes[central + 20]) | Int(original.bytes[central + 21]) << 8
            | Int(original.bytes[central + 22]) << 16
        for seed in UInt64(1)...24 {
            var bytes = original
            bytes.bytes.replaceSubrange(data..<(data + size), with: PackageFixtures.noise(size, seed: seed))
            try bytes.write(to: zip)
            let report = try await PackageValidator().validate(zip)
            let rules = Set(report.findings.filter { $0.path == "js/big.js" }.map(\.rule.id))
            #expect(!rules.isDisjoint(with: ["ARCHIVE-CORRUPT", "ARCHIVE-TRUNCATED", "ARCHIVE-CRC"]), "seed \(seed)")
        }
    }
}
