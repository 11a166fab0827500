import Foundation
import SCLMArchive
import SCLMCore
import SCLMTestSupport
import Testing

/// libarchive reads a zip through ``ZipView``, which ends the file at its end record: a comment of any
/// length the format allows is no longer mistaken for damage, on one thread or several.
@Suite(.tags(.medium)) struct ZipViewTests {
    struct CommentCase: Sendable, CustomTestStringConvertible {
        let commentLength: Int
        let workers: Int
        var testDescription: String { "\(commentLength)-byte comment, \(workers) worker(s)" }
    }

    static let cases = [0, 16_000, 65_000, 65_535].flatMap { length in
        [1, 3].map { CommentCase(commentLength: length, workers: $0) }
    }

    /// The valid package with a comment of `length` bytes (text that holds no zip signature).
    private static func commentedZip(length: Int, in folder: TemporaryDirectory) throws -> String {
        let zip = folder.appending("commented.zip")
        try PackageFixtures.validZip().write(to: zip)
        var bytes = try ZipBytes(contentsOf: zip)
        try bytes.setComment((0..<length).map { UInt8(ascii: "a") + UInt8($0 % 26) })
        try bytes.write(to: zip)
        return zip
    }

    @Test(arguments: cases)
    func aZipWithACommentUpToTheFormatsMaximumIsValid(_ test: CommentCase) async throws {
        let folder = TemporaryDirectory()
        let zip = try Self.commentedZip(length: test.commentLength, in: folder)
        var policy = Policy()
        policy.workerCount = test.workers
        let report = try await PackageValidator(policy: policy).validate(zip)
        #expect(report.findings.isEmpty, "\(report.findings)")
        #expect(report.byteCount == Int64(PackageFixtures.validFiles.reduce(0) { $0 + $1.1.count }))
    }

    @Test(arguments: [1, 3])
    func aZipWithTheLongestCommentUnpacksEveryFile(workers: Int) async throws {
        let folder = TemporaryDirectory()
        let zip = try Self.commentedZip(length: 65_535, in: folder)
        var policy = Policy()
        policy.workerCount = workers
        let target = folder.appending("sources")
        let staged = try await PackageExtractor(policy: policy, isDurable: false).extract(
            zipAt: zip, stagingFor: target)
        defer { try? FileSystem.removeTree(staged.stagingPath) }
        for (path, bytes) in PackageFixtures.validFiles {
            let written = FileManager.default.contents(atPath: staged.stagingPath + "/" + path)
            #expect(written == Data(bytes), "\(path)")
        }
    }
}
