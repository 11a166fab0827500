import Foundation
import SCLMCore
import SCLMStore
import SCLMSync
import SCLMTestSupport
import Testing

/// The cache's file names, which files stay, and the resume records beside partial downloads.
@Suite(.tags(.small)) struct PackageCacheTests {
    let cache = PackageCache(directory: "/home/cache")

    @Test func namesFollowTheDesignedScheme() {
        #expect(cache.packagePath(presentationId: 101, revision: 4) == "/home/cache/101_rev4.zip")
        #expect(cache.packagePartPath(presentationId: 101, revision: 4) == "/home/cache/101_rev4.zip.part")
        #expect(
            cache.mediaPartPath(presentationId: 101, mediaFileId: 1011, revision: 0)
                == "/home/cache/101_media1011_rev0.part")
        #expect(PackageCache.resumeRecordPath(forPart: "/c/101_rev4.zip.part") == "/c/101_rev4.zip.part.json")
    }

    @Test(arguments: [
        ("101_rev4.zip", PackageCache.Entry(presentationId: 101, mediaFileId: nil, revision: 4, name: "101_rev4.zip")),
        (
            "101_rev4.zip.part.json",
            PackageCache.Entry(presentationId: 101, mediaFileId: nil, revision: 4, name: "101_rev4.zip.part.json")
        ),
        (
            "7_media9_rev0.part",
            PackageCache.Entry(presentationId: 7, mediaFileId: 9, revision: 0, name: "7_media9_rev0.part")
        ),
    ])
    func parsesItsOwnNames(_ name: String, _ entry: PackageCache.Entry) {
        #expect(PackageCache.parse(name) == entry)
    }

    @Test(arguments: [
        "notes.txt", "101.zip", "x_rev4.zip", "101_rev.zip", "101_revx.zip.part", "101_media_rev1.part",
        "101_rev4.zip.tmp-12", ".101_rev4.zip",
    ])
    func leavesOtherNamesAlone(_ name: String) {
        #expect(PackageCache.parse(name) == nil)
    }

    @Test func keepsOnlyFilesTheNextDownloadCanUse() {
        let pending = MetadataPlanTests.stored(101, client: 1, revision: 5, installed: 4)
        let owners: [Int64: (presentationId: Int64, revision: Int64)] = [1011: (101, 2)]
        func wanted(_ name: String, _ presentation: PresentationSummary?) -> Bool {
            PackageCache.isWanted(
                PackageCache.parse(name).unsafelyUnwrapped, presentation: presentation, mediaOwners: owners)
        }
        #expect(wanted("101_rev5.zip.part", pending))
        #expect(wanted("101_media1011_rev2.part", pending))
        #expect(!wanted("101_rev4.zip", pending), "an older revision")
        #expect(!wanted("101_media1011_rev1.part", pending), "an older media revision")
        #expect(!wanted("101_media999_rev0.part", pending), "a media file no longer listed")
        #expect(!wanted("101_rev5.zip", nil), "a presentation the server no longer lists")
        #expect(!wanted("101_rev5.zip", MetadataPlanTests.stored(101, client: 1, revision: 5, installed: 5)))
        #expect(!wanted("101_rev5.zip", MetadataPlanTests.stored(101, client: 1, revision: 5, skip: true)))
    }

    @Test(.tags(.medium)) func aResumeRecordRoundTripsBesideItsPart() throws {
        let folder = TemporaryDirectory()
        let part = folder.appending("101_rev4.zip.part")
        #expect(ResumeRecord.load(forPart: part) == nil)
        let record = ResumeRecord(blobId: "b43e", fileSize: 9_203_268, entityTag: "\"abc\"")
        try record.save(forPart: part)
        #expect(ResumeRecord.load(forPart: part) == record)
        #expect(record.matches(blobId: "b43e", fileSize: 9_203_268))
        #expect(!record.matches(blobId: "b43e", fileSize: 9_203_269))
        #expect(!record.matches(blobId: "other", fileSize: 9_203_268))
        try Data("{not json".utf8).write(to: URL(fileURLWithPath: PackageCache.resumeRecordPath(forPart: part)))
        #expect(ResumeRecord.load(forPart: part) == nil)
    }

    @Test(arguments: [
        ("brochure.pdf", true), ("Vidéo 1.mp4", true), ("", false), (".", false), ("..", false), ("a/b.pdf", false),
        ("../../etc/passwd", false), ("a\\b.pdf", false), ("bad\nname.pdf", false),
        (String(repeating: "x", count: 256), false),
    ])
    func mediaFileNamesMustNameOneFile(_ name: String, _ isSafe: Bool) {
        #expect((MediaFileName.validated(name) != nil) == isSafe)
    }
}
