import Foundation
import SCLMArchive
import SCLMCore
import SCLMTestSupport
import Synchronization
import Testing

@Suite(.tags(.medium)) struct PackageExtractorTests {
    /// A parent folder holding `sources/` with an old package, as an installed presentation has.
    private static func installedTarget(in folder: TemporaryDirectory) throws -> String {
        try folder.write("<html>old revision</html>", to: "content/sources/index.html")
        return folder.appending("content/sources")
    }

    @Test func aValidPackageExtractsByteIdenticallyAndInstalls() async throws {
        let folder = TemporaryDirectory()
        let zip = folder.appending("package.zip")
        try PackageFixtures.validZip().write(to: zip)
        let target = try Self.installedTarget(in: folder)
        let reports = Mutex<[PackageExtractor.Progress]>([])
        let staged = try await PackageExtractor().extract(zipAt: zip, stagingFor: target) { progress in
            reports.withLock { $0.append(progress) }
        }
        #expect(staged.stagingPath.hasPrefix(folder.appending("content/.sources.staging-")))
        #expect(staged.fileCount == PackageFixtures.validFiles.count)
        #expect(try String(contentsOfFile: target + "/index.html", encoding: .utf8) == "<html>old revision</html>")

        try PackageExtractor.installStaging(staged.stagingPath, as: target)
        for (path, bytes) in PackageFixtures.validFiles {
            #expect(try Data(contentsOf: URL(fileURLWithPath: target + "/" + path)) == Data(bytes), "\(path)")
            #expect(FileSystem.mode(of: target + "/" + path) == 0o644)
        }
        #expect(FileSystem.mode(of: target + "/img") == 0o755)
        #expect(PackageFixtures.listing(folder.appending("content")).filter { !$0.hasPrefix("sources") }.isEmpty)
        let last = try #require(reports.withLock { $0.last })
        #expect(last.bytesWritten == staged.byteCount)
        #expect(last.bytesExpected == staged.byteCount)
        #expect(reports.withLock { $0.map(\.bytesWritten) == $0.map(\.bytesWritten).sorted() })
    }

    @Test(arguments: HostileArchive.all, ContentPolicy.allCases)
    func hostileArchivesAreRefusedAndLeaveNothingBehind(_ hostile: HostileArchive, contentPolicy: ContentPolicy)
        async throws
    {
        let folder = TemporaryDirectory()
        let zip = folder.appending("hostile.zip")
        try await hostile.write(to: zip)
        let target = try Self.installedTarget(in: folder)
        let before = PackageFixtures.listing(folder.path)
        var policy = Policy()
        policy.contentPolicy = contentPolicy
        let error = await #expect(throws: ArchiveError.self) {
            try await PackageExtractor(policy: policy).extract(zipAt: zip, stagingFor: target)
        }
        #expect(error?.code == .refused)
        let rule = hostile.extractionRule ?? hostile.rule
        #expect(error?.findings.contains { $0.rule.id == rule } == true, "\(error?.findings ?? [])")
        #expect(error?.category.exitCode == 1)
        #expect(PackageFixtures.listing(folder.path) == before)
        #expect(try String(contentsOfFile: target + "/index.html", encoding: .utf8) == "<html>old revision</html>")
        #expect(!FileManager.default.fileExists(atPath: "/tmp/sclm-absolute.html"))
        #expect(!FileManager.default.fileExists(atPath: folder.appending("content/evil.html")))
    }

    @Test func removingTheArchiveDeletesTheZipOnlyOnceThePackagePassed() async throws {
        let folder = TemporaryDirectory()
        let good = folder.appending("good.zip")
        try PackageFixtures.validZip().write(to: good)
        let staged = try await PackageExtractor().extract(
            zipAt: good, stagingFor: folder.appending("sources"), removingArchive: true)
        #expect(!FileSystem.exists(good))
        #expect(staged.fileCount == PackageFixtures.validFiles.count)
        let hostile = folder.appending("hostile.zip")
        try await #require(HostileArchive.all.first { $0.rule == "PATH-TRAVERSAL" }).write(to: hostile)
        await #expect(throws: ArchiveError.self) {
            try await PackageExtractor().extract(
                zipAt: hostile, stagingFor: folder.appending("other"), removingArchive: true)
        }
        #expect(FileSystem.exists(hostile))  // the caller decides what a refused zip is worth
    }

    @Test func aRefusalForADamagedEntryNamesOnlyThatRule() async throws {
        // Extraction stops at the damaged entry; the entries after it were never read, so the content rules
        // must not run on the partial list (they would report a missing index.html first).
        let folder = TemporaryDirectory()
        let zip = folder.appending("damaged.zip")
        var builder = ZipBuilder()
        builder.file("css/a.css", "body { color: red }", compression: .store)
        builder.file("index.html", "<p>start</p>")
        try builder.write(to: zip)
        var bytes = try ZipBytes(contentsOf: zip)
        try bytes.flipFirstDataByte(ofEntry: "css/a.css")
        try bytes.write(to: zip)
        let error = await #expect(throws: ArchiveError.self) {
            try await PackageExtractor().extract(zipAt: zip, stagingFor: folder.appending("sources"))
        }
        #expect(error?.findings.map(\.rule.id) == ["ARCHIVE-CRC"])
    }

    @Test func contentErrorsInstallWithTheirFindingsUnlessThePolicyRefusesThem() async throws {
        let folder = TemporaryDirectory()
        let zip = folder.appending("broken.zip")
        var builder = ZipBuilder()
        builder.file("index.html", "<img src=\"missing.png\"><script src=\"https://cdn.example.com/a.js\"></script>")
        try builder.write(to: zip)
        let staged = try await PackageExtractor().extract(zipAt: zip, stagingFor: folder.appending("sources"))
        #expect(staged.fileCount == 1)
        #expect(staged.findings.map(\.rule.id) == ["REF-MISSING", "REF-REMOTE"])
        #expect(staged.findings.allSatisfy { $0.ruleClass == .content })
        try FileSystem.removeTree(staged.stagingPath)

        var policy = Policy()
        policy.contentPolicy = .refuse
        let error = await #expect(throws: ArchiveError.self) {
            try await PackageExtractor(policy: policy).extract(zipAt: zip, stagingFor: folder.appending("sources"))
        }
        #expect(error?.code == .refused)
        #expect(error?.findings.map(\.rule.id) == ["REF-MISSING", "REF-REMOTE"])
        #expect(error?.description.contains("REF-MISSING at index.html:1") == true)
        #expect(PackageFixtures.listing(folder.path) == ["broken.zip"])
    }

    @Test(arguments: ContentPolicy.allCases)
    func aPackageWithoutIndexHTMLInstallsOnlyUnderTheInstallPolicy(_ contentPolicy: ContentPolicy) async throws {
        let folder = TemporaryDirectory()
        let zip = folder.appending("no-index.zip")
        var builder = ZipBuilder()
        builder.file("slide1.html", "<p>first</p>")
        try builder.write(to: zip)
        var policy = Policy()
        policy.contentPolicy = contentPolicy
        let extractor = PackageExtractor(policy: policy)
        switch contentPolicy {
        case .install:
            let staged = try await extractor.extract(zipAt: zip, stagingFor: folder.appending("sources"))
            #expect(staged.findings.map(\.rule.id) == ["CONTENT-NO-INDEX"])
        case .refuse:
            let error = await #expect(throws: ArchiveError.self) {
                try await extractor.extract(zipAt: zip, stagingFor: folder.appending("sources"))
            }
            #expect(error?.findings.map(\.rule.id) == ["CONTENT-NO-INDEX"])
        }
    }

    @Test func aSafetyErrorRefusesAPackageWhoseContentErrorsAloneWouldInstall() async throws {
        let folder = TemporaryDirectory()
        let zip = folder.appending("mixed.zip")
        var builder = ZipBuilder()
        builder.file("index.html", "<img src=\"missing.png\">")
        builder.symlink("img", to: "/etc")
        try builder.write(to: zip)
        let error = await #expect(throws: ArchiveError.self) {
            try await PackageExtractor().extract(zipAt: zip, stagingFor: folder.appending("sources"))
        }
        #expect(error?.description.contains("ENTRY-SYMLINK at img") == true, "\(String(describing: error))")
    }

    /// The safety rules no hostile archive trips at the default policy: two budgets (reached with a small
    /// policy) and over-long names.
    static let otherSafetyCases: [(rule: String, policy: Policy, extra: @Sendable (inout ZipBuilder) -> Void)] = {
        var total = Policy()
        total.maxTotalSize = 64
        var file = Policy()
        file.maxFileSize = 64
        return [
            ("BUDGET-TOTAL-SIZE", total, { _ in }), ("BUDGET-FILE-SIZE", file, { _ in }),
            ("PATH-TOO-LONG", Policy(), { $0.file("img/" + String(repeating: "a", count: 300) + ".png", "long") }),
        ]
    }()

    @Test(arguments: ContentPolicy.allCases)
    func theSafetyRulesNoHostileArchiveTripsRefuseUnderEitherContentPolicy(_ contentPolicy: ContentPolicy)
        async throws
    {
        let folder = TemporaryDirectory()
        for (rule, base, extra) in Self.otherSafetyCases {
            var zip = PackageFixtures.validZip()
            extra(&zip)
            let path = folder.appending("\(rule).zip")
            try zip.write(to: path)
            var policy = base
            policy.contentPolicy = contentPolicy
            let error = await #expect(throws: ArchiveError.self) {
                try await PackageExtractor(policy: policy).extract(zipAt: path, stagingFor: folder.appending("sources"))
            }
            #expect(error?.findings.first?.rule.id == rule, "\(String(describing: error))")
        }
    }

    /// Together with the hostile archives, the cases above trip every safety rule, so the two tests before
    /// this one show that each safety rule refuses a package under both content policies. `ENTRY-DEVICE` is for
    /// special files in a package *folder*: a zip's declared FIFOs, sockets and devices are `ENTRY-SPECIAL`.
    @Test func everySafetyRuleHasAnArchiveThatExtractionRefuses() {
        let covered = Set(HostileArchive.all.map { $0.extractionRule ?? $0.rule } + Self.otherSafetyCases.map(\.rule))
        let safety = Rule.all.filter { $0.ruleClass == .safety && $0 != .entryDevice }.map(\.id)
        #expect(safety.filter { !covered.contains($0) } == [], "add a HostileArchive for each")
    }

    @Test func cancellingMidwayRemovesTheStagingFolder() async throws {
        let folder = TemporaryDirectory()
        let zip = folder.appending("big.zip")
        try PackageFixtures.noiseZip(files: 8).write(to: zip)
        let target = try Self.installedTarget(in: folder)
        let before = PackageFixtures.listing(folder.path)
        let started = AsyncStream<Void>.makeStream()
        let cancelled = DispatchSemaphore(value: 0)
        let task = Task {
            try await PackageExtractor().extract(zipAt: zip, stagingFor: target) { _ in
                started.continuation.yield()
                cancelled.wait()  // hold the extraction thread until the task is cancelled
                cancelled.signal()
            }
        }
        for await _ in started.stream { break }
        task.cancel()
        cancelled.signal()
        await #expect(throws: CancellationError.self) { try await task.value }
        #expect(PackageFixtures.listing(folder.path) == before)
    }

    @Test func aMissingParentFolderIsAWriteFailure() async throws {
        let folder = TemporaryDirectory()
        let zip = folder.appending("package.zip")
        try PackageFixtures.validZip().write(to: zip)
        let error = await #expect(throws: ArchiveError.self) {
            try await PackageExtractor().extract(zipAt: zip, stagingFor: folder.appending("missing/parent/sources"))
        }
        #expect(error?.code == .writeFailed)
        #expect(error?.category.exitCode == 74)
        #expect(PackageFixtures.listing(folder.path) == ["package.zip"])
    }

    @Test func installingIntoAnEmptyPlaceCreatesTheTarget() async throws {
        let folder = TemporaryDirectory()
        let zip = folder.appending("package.zip")
        try PackageFixtures.validZip().write(to: zip)
        let target = folder.appending("sources")
        let staged = try await PackageExtractor(isDurable: false).extract(zipAt: zip, stagingFor: target)
        try PackageExtractor.installStaging(staged.stagingPath, as: target)
        #expect(FileManager.default.fileExists(atPath: target + "/index.html"))
        #expect(PackageFixtures.listing(folder.path).filter { $0.hasPrefix(".") }.isEmpty)
    }
}

/// The states an interrupted install can leave, and how a rerun repairs each.
@Suite(.tags(.small)) struct InstallRepairTests {
    @Test func oldWithoutTargetIsRolledBack() throws {
        let folder = TemporaryDirectory()
        try folder.write("old", to: ".sources.old/index.html")
        try folder.write("half", to: ".sources.staging-0123abcd/index.html")
        try PackageExtractor.repairInterruptedInstall(at: folder.appending("sources"))
        #expect(try String(contentsOfFile: folder.appending("sources/index.html"), encoding: .utf8) == "old")
        #expect(PackageFixtures.listing(folder.path) == ["sources", "sources/index.html"])
    }

    @Test func oldBesideTargetIsRemoved() throws {
        let folder = TemporaryDirectory()
        try folder.write("old", to: ".sources.old/index.html")
        try folder.write("new", to: "sources/index.html")
        try PackageExtractor.repairInterruptedInstall(at: folder.appending("sources/"))
        #expect(try String(contentsOfFile: folder.appending("sources/index.html"), encoding: .utf8) == "new")
        #expect(PackageFixtures.listing(folder.path) == ["sources", "sources/index.html"])
    }

    @Test func installAfterACrashBetweenRenamesKeepsTheNewContent() throws {
        let folder = TemporaryDirectory()
        try folder.write("old", to: ".sources.old/index.html")
        try folder.write("new", to: ".sources.staging-feedbeef/index.html")
        try folder.write("other", to: "other/index.html")
        try PackageExtractor.installStaging(
            folder.appending(".sources.staging-feedbeef"), as: folder.appending("sources"))
        #expect(try String(contentsOfFile: folder.appending("sources/index.html"), encoding: .utf8) == "new")
        #expect(PackageFixtures.listing(folder.path) == ["other", "other/index.html", "sources", "sources/index.html"])
    }

    @Test func aFailedRenameKeepsThePreviousContent() throws {
        let folder = TemporaryDirectory()
        try folder.write("old", to: "sources/index.html")
        let error = #expect(throws: ArchiveError.self) {
            try PackageExtractor.installStaging(
                folder.appending(".sources.staging-missing"), as: folder.appending("sources"))
        }
        #expect(error?.code == .installFailed)
        #expect(try String(contentsOfFile: folder.appending("sources/index.html"), encoding: .utf8) == "old")
    }
}
