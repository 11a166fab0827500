import SCLMTestSupport
import Testing

@testable import SCLMArchive

/// The comparison of two revisions in process: closures followed through stylesheets, files outside every
/// slide, findings that only moved, and a zip read as its folder.
@Suite(.tags(.small)) struct PackageDiffTests {
    /// A deck whose start slide loads `a.css`, which imports `b.css`, which loads `img/bg.png`; `data.json`
    /// belongs to no slide.
    private static func deck(
        _ name: String, in folder: TemporaryDirectory, background: String = "png", data: String = "{}",
        slideHead: String = ""
    ) throws -> String {
        try folder.write(
            "<html><head>\(slideHead)<link rel=stylesheet href=css/a.css></head><body><p>Hi</p>"
                + "<img src=img/missing.png></body></html>",
            to: "\(name)/index.html")
        try folder.write("@import url(\"b.css\");", to: "\(name)/css/a.css")
        try folder.write("body { background: url(../img/bg.png) }", to: "\(name)/css/b.css")
        try folder.write(background, to: "\(name)/img/bg.png")
        try folder.write(data, to: "\(name)/data.json")
        return folder.appending(name)
    }

    private static func diff(_ old: String, _ new: String) async throws -> PackageDiff {
        PackageDiff(old: try await PackageContents.read(old), new: try await PackageContents.read(new))
    }

    @Test func aFileLoadedThroughAnImportChangesTheSlide() async throws {
        let folder = TemporaryDirectory()
        let old = try Self.deck("old", in: folder)
        let new = try Self.deck("new", in: folder, background: "another png")
        let contents = try await PackageContents.read(old)
        #expect(
            contents.closure(of: "index.html").keys.sorted() == [
                "css/a.css", "css/b.css", "img/bg.png", "index.html",
            ])
        let diff = try await Self.diff(old, new)
        #expect(diff.slides.map(\.kind) == [.changed])
        #expect(
            diff.slides.first?.files == [
                PackageDiff.FileChange(path: "img/bg.png", kind: .changed, oldSize: 3, newSize: 11)
            ])
        #expect(diff.slides.first?.words == [])
        #expect(diff.otherFiles.isEmpty && diff.newFindings.isEmpty && !diff.hasNoChanges)
    }

    @Test func aFileInNoSlideIsListedApart() async throws {
        let folder = TemporaryDirectory()
        let diff = try await Self.diff(
            try Self.deck("old", in: folder), try Self.deck("new", in: folder, data: "{\"a\":1}"))
        #expect(diff.slides.map(\.kind) == [.unchanged])
        #expect(diff.otherFiles.map(\.path) == ["data.json"])
        #expect(!diff.hasNoChanges)
    }

    @Test func aFindingThatOnlyMovedIsNeitherNewNorGone() async throws {
        let folder = TemporaryDirectory()
        let old = try Self.deck("old", in: folder)
        let new = try Self.deck("new", in: folder, slideHead: "\n\n<meta charset=utf-8>")
        let oldFindings = try await PackageContents.read(old).report.findings
        let newFindings = try await PackageContents.read(new).report.findings
        #expect(oldFindings.map(\.rule) == [.referenceMissing] && newFindings.map(\.rule) == [.referenceMissing])
        #expect(oldFindings.first?.line != newFindings.first?.line, "the finding moved")
        let diff = try await Self.diff(old, new)
        #expect(diff.newFindings.isEmpty && diff.goneFindings.isEmpty)
        #expect(diff.slides.first?.files.map(\.path) == ["index.html"])
    }

    @Test func aZipReadsAsItsFolder() async throws {
        let folder = TemporaryDirectory()
        let old = try Self.deck("old", in: folder)
        var zip = ZipBuilder()
        try zip.folder(contentsOf: old)
        try zip.write(to: folder.appending("old.zip"))
        let diff = try await Self.diff(folder.appending("old.zip"), old)
        #expect(diff.hasNoChanges)
        #expect(diff.slides.map(\.name) == ["index.html"])
    }
}
