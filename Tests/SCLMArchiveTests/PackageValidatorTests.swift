import Foundation
import SCLMArchive
import SCLMCore
import SCLMTestSupport
import Testing

@Suite(.tags(.medium)) struct PackageValidatorTests {
    @Test func aValidZipHasNoFindings() async throws {
        let folder = TemporaryDirectory()
        let zip = folder.appending("package.zip")
        try PackageFixtures.validZip().write(to: zip)
        let report = try await PackageValidator().validate(zip)
        #expect(report.findings.isEmpty, "\(report.findings)")
        #expect(report.kind == .zip)
        #expect(report.entryCount == PackageFixtures.validFiles.count + 5)
        #expect(report.byteCount == Int64(PackageFixtures.validFiles.reduce(0) { $0 + $1.1.count }))
    }

    @Test func aValidFolderHasNoFindings() async throws {
        let folder = TemporaryDirectory()
        try PackageFixtures.writeValidFolder(at: folder.path)
        let report = try await PackageValidator().validate(folder.path)
        #expect(report.findings.isEmpty, "\(report.findings)")
        #expect(report.kind == .folder)
    }

    @Test func aFIFOInAPackageFolderIsADeviceEntryAndValidationDoesNotBlockOnIt() async throws {
        let folder = TemporaryDirectory()
        try PackageFixtures.writeValidFolder(at: folder.path)
        #expect(mkfifo(folder.appending("img/pipe"), 0o644) == 0)
        let report = try await PackageValidator().validate(folder.path)
        #expect(report.findings.map(\.rule.id) == ["ENTRY-DEVICE"], "\(report.findings)")
        #expect(report.findings.first?.path == "img/pipe")
    }

    @Test(arguments: HostileArchive.all)
    func hostileArchivesYieldTheirRuleAndWriteNothing(_ hostile: HostileArchive) async throws {
        let folder = TemporaryDirectory()
        let zip = folder.appending("hostile.zip")
        try await hostile.write(to: zip)
        let before = PackageFixtures.listing(folder.path)
        let report = try await PackageValidator().validate(zip)
        let finding = try #require(report.findings.first { $0.rule.id == hostile.rule }, "\(report.findings)")
        #expect(finding.severity == .error)
        #expect(!report.passes(strict: false))
        #expect(PackageFixtures.listing(folder.path) == before)
    }

    /// A refused method's data is never decoded (its decoder may trust hostile parameters): the bomb costs nothing.
    @Test func aBzip2BombIsRefusedForItsMethodWithoutBeingDecoded() async throws {
        let folder = TemporaryDirectory()
        let zip = folder.appending("bomb.zip")
        var base = ZipBuilder()
        base.file("index.html", "<html></html>")
        let bomb = try Bzip2Bomb.writeZip(to: zip, expandingToAtLeast: 1 << 30, base: base)
        #expect(bomb.bytes.count < 1024)
        #expect(bomb.expandedSize >= 1 << 30)

        let report = try await PackageValidator().validate(zip)
        #expect(report.findings.map(\.rule.id) == ["ARCHIVE-METHOD"], "\(report.findings)")
        #expect(report.byteCount < 1 << 10, "decoded \(report.byteCount) bytes")
    }

    @Test func theBombHelperExpandsAsClaimed() throws {
        let small = try Bzip2Bomb.stream(expandingToAtLeast: 100 << 20)
        #expect(try Int64(Bzip2Bomb.expandedSize(of: small.bytes)) == small.expandedSize)
    }

    @Test func aMissingImageAWrongCaseStylesheetAndADanglingSwipeAreExactlyThreeFindings() async throws {
        let folder = TemporaryDirectory()
        let zip = folder.appending("broken.zip")
        var builder = ZipBuilder()
        builder.file(
            "index.html",
            """
            <!DOCTYPE html>
            <html>
            <head>
              <meta name="clm-swipe-next" content="slide3.html">
              <link rel="stylesheet" href="CSS/main.css">
            </head>
            <body>
              <img src="img/missing.png">
              <img src='img/logo.png'>
            </body>
            </html>
            """)
        builder.file("css/main.css", "body { background: url(\"../img/logo.png\") }")
        builder.file("img/logo.png", bytes: PackageFixtures.noise(100, seed: 9))
        try builder.write(to: zip)

        let report = try await PackageValidator().validate(zip)
        let summary = report.findings.map { "\($0.rule.id) \($0.location)" }
        #expect(
            summary == [
                "SWIPE-TARGET-MISSING index.html:4", "REF-CASE-MISMATCH index.html:5", "REF-MISSING index.html:8",
            ])
        #expect(report.findings.allSatisfy { $0.severity == .error && !$0.fix.isEmpty })
    }

    @Test func twoProblemsOnOneLineAreTwoFindingsAndARepeatedOneIsOne() async throws {
        let folder = TemporaryDirectory()
        let zip = folder.appending("minified.zip")
        var builder = ZipBuilder()
        builder.file(
            "index.html",
            #"<html><head><meta name="clm-swipe-next" content="a.html"><meta name="clm-swipe-previous" content="b.html">"#
                + #"<link rel="stylesheet" href="s.css"></head><body><img src="x.png"><img src="x.png"></body></html>"#)
        builder.file("s.css", "a{background:url(one.png)}b{background:url(two.png)}c{background:url(one.png)}")
        try builder.write(to: zip)

        let report = try await PackageValidator().validate(zip)
        let summary = report.findings.map { "\($0.rule.id) \($0.location) \($0.message)" }
        // One finding per problem, the image referenced twice on the line reported once.
        #expect(
            summary == [
                "REF-MISSING index.html:1 src 'x.png' is not in the package",
                "SWIPE-TARGET-MISSING index.html:1 clm-swipe-next names slide 'a.html', which is not in the package",
                "SWIPE-TARGET-MISSING index.html:1 clm-swipe-previous names slide 'b.html', which is not in the package",
                "REF-MISSING s.css:1 url() 'one.png' is not in the package",
                "REF-MISSING s.css:1 url() 'two.png' is not in the package",
            ], "\(summary)")
    }

    @Test func contentRulesReportTheUsualMistakes() async throws {
        let folder = TemporaryDirectory()
        try folder.write("<html><body><p>wrapped</p></body></html>", to: "deck/index.html")
        try folder.write(
            """
            <html><head><meta name="clm-swipe-next" content="index.html"></head>
            <body><img src="http://cdn.example.com/logo.png"><img src="/abs/logo.png">
            <script>StoryCLM.Go("index.html")</script></body></html>
            """, to: "deck/slides/two.html")
        try folder.write("   \n", to: "deck/empty.html")
        let report = try await PackageValidator().validate(folder.path)
        let rules = Set(report.findings.map(\.rule.id))
        #expect(
            rules == [
                "CONTENT-NO-INDEX", "CONTENT-SLIDE-NOT-AT-ROOT", "REF-REMOTE", "REF-ESCAPES-PACKAGE",
                "STORYCLM-JS-MISSING", "HTML-EMPTY", "SWIPE-TARGET-MISSING",
            ], "\(report.findings)")
        let noIndex = try #require(report.findings.first { $0.rule.id == "CONTENT-NO-INDEX" })
        #expect(noIndex.fix.contains("Zip the contents of 'deck'"))
        #expect(report.findings.first { $0.rule.id == "REF-REMOTE" }?.severity == .warning)
    }

    @Test func undecodableHTMLIsReportedUnlessACharsetIsDeclared() async throws {
        let folder = TemporaryDirectory()
        let latin1: [UInt8] = Array("<html><body>caf".utf8) + [0xE9] + Array("</body></html>".utf8)
        try Data(latin1).write(to: URL(fileURLWithPath: folder.appending("index.html")))
        let declared = Array("<meta charset=windows-1252>".utf8) + latin1
        try Data(declared).write(to: URL(fileURLWithPath: folder.appending("two.html")))
        let report = try await PackageValidator().validate(folder.path)
        #expect(report.findings.map { "\($0.rule.id) \($0.location)" } == ["HTML-UNDECODABLE index.html"])
    }

    @Test func budgetsFromThePolicyApply() async throws {
        let folder = TemporaryDirectory()
        let zip = folder.appending("package.zip")
        try PackageFixtures.validZip().write(to: zip)
        var policy = Policy()
        policy.maxTotalSize = 100_000
        var report = try await PackageValidator(policy: policy).validate(zip)
        #expect(report.findings.map(\.rule.id) == ["BUDGET-TOTAL-SIZE"])
        policy = Policy()
        policy.maxEntryCount = 5
        report = try await PackageValidator(policy: policy).validate(zip)
        #expect(report.findings.map(\.rule.id) == ["BUDGET-ENTRY-COUNT"])
        policy = Policy()
        policy.maxFileSize = 100_000
        report = try await PackageValidator(policy: policy).validate(folder.path + "/package.zip")
        #expect(
            report.findings.map { "\($0.rule.id) \($0.location)" } == [
                "BUDGET-FILE-SIZE img/bg.jpg", "BUDGET-FILE-SIZE mediafiles/intro.mp4",
            ])
    }

    @Test func folderRulesSeeSymlinksAndRawNames() async throws {
        let folder = TemporaryDirectory()
        try PackageFixtures.writeValidFolder(at: folder.path)
        #expect(symlink("/etc/passwd", folder.appending("img/passwd")) == 0)
        let badName = folder.path + "/img/" + String(decoding: [0x61, 0x0A, 0x62], as: UTF8.self) + ".png"
        try Data("x".utf8).write(to: URL(fileURLWithPath: badName))
        try folder.write("collides", to: "IMG/logo.png")
        let report = try await PackageValidator().validate(folder.path)
        let summary = Set(report.findings.map { "\($0.rule.id) \($0.location)" })
        #expect(summary == ["ENTRY-SYMLINK img/passwd", "PATH-CONTROL-CHAR img/a\\nb.png", "PATH-CASE-COLLISION img"])
    }

    @Test func clutterIsAWarningAndClutterFoldersAreNotRead() async throws {
        let folder = TemporaryDirectory()
        try PackageFixtures.writeValidFolder(at: folder.path)
        try folder.write("x", to: ".DS_Store")
        for index in 0..<50 { try folder.write("object", to: ".git/objects/\(index)") }
        var policy = Policy()
        policy.maxEntryCount = PackageFixtures.validFiles.count + 10
        let report = try await PackageValidator(policy: policy).validate(folder.path)
        #expect(
            report.findings.map { "\($0.rule.id) \($0.severity.rawValue) \($0.location)" } == [
                "CONTENT-JUNK warning .DS_Store", "CONTENT-JUNK warning .git",
            ])
        #expect(report.passes(strict: false))
        #expect(!report.passes(strict: true))
    }

    @Test func aMissingPathIsUnreadable() async throws {
        let error = await #expect(throws: ArchiveError.self) {
            try await PackageValidator().validate("/nonexistent/package.zip")
        }
        #expect(error?.code == .unreadable)
        #expect(error?.category.exitCode == 74)
    }

    @Test func cancellationStopsValidation() async throws {
        let folder = TemporaryDirectory()
        let zip = folder.appending("big.zip")
        var builder = ZipBuilder()
        builder.file("index.html", "<html></html>")
        builder.file("big.bin", bytes: PackageFixtures.noise(1 << 20, seed: 7), compression: .store)
        try builder.write(to: zip)
        let task = Task { try await PackageValidator().validate(zip) }
        task.cancel()
        await #expect(throws: CancellationError.self) { try await task.value }
    }

    /// Found by the zip fuzz target: a 453-byte zip whose LZMA entries declare a 3.3 GB dictionary, which
    /// libarchive's decoder allocated. Each entry is an `ARCHIVE-METHOD` error, and validation returns a report.
    @Test func lzmaEntriesWithAHugeDictionaryAreReportedByMethod() async throws {
        let path = ProcessRunner.packageRoot + "/Tests/Fuzz/Crashes/zip/lzma-dictionary-3gib.zip"
        let report = try await PackageValidator().validate(path)
        let methods = report.findings.filter { $0.rule.id == "ARCHIVE-METHOD" }.compactMap(\.path)
        #expect(Set(methods) == ["index.html", "b.html"])
    }
}
