import Foundation
import SCLMArchive
import SCLMCore
import SCLMTestSupport
import Synchronization
import Testing

/// Forced worker counts must give exactly what one thread gives: the same tree, the same findings.
@Suite(.tags(.medium)) struct ParallelScanTests {
    /// A package with many entries whose references cross every worker's share, and content findings.
    private static func crossReferencingPackage() -> ZipBuilder {
        var zip = ZipBuilder()
        zip.file("index.html", "<html><body><a href=\"slides/199.html\">last</a><img src=\"img/0.png\"></body></html>")
        for index in 0..<200 {
            zip.file("img/\(index).png", bytes: PackageFixtures.noise(4_000 + index, seed: UInt64(index)))
            let next = index % 7 == 0 ? "img/missing-\(index).png" : "img/\(199 - index).png"
            zip.file("slides/\(index).html", "<html><body><img src=\"../\(next)\"></body></html>")
        }
        zip.file("Thumbs.db", "clutter")
        return zip
    }

    /// The packages compared: every hostile archive, the valid package, and content-rule packages.
    private static let cases: [HostileArchive] =
        HostileArchive.all + [
            HostileArchive(name: "valid package", rule: "") { try PackageFixtures.validZip().write(to: $0) },
            HostileArchive(name: "cross-referencing package", rule: "REF-MISSING") {
                try crossReferencingPackage().write(to: $0)
            },
            // Extraction stops at the first bad entry: a worker must not add the second one's finding.
            HostileArchive(name: "two damaged entries in different shares", rule: "ARCHIVE-CRC") { path in
                try crossReferencingPackage().write(to: path)
                var bytes = try ZipBytes(contentsOf: path)
                try bytes.flipFirstDataByte(ofEntry: "img/3.png")
                try bytes.flipFirstDataByte(ofEntry: "slides/190.html")
                try bytes.write(to: path)
            },
            HostileArchive(name: "missing index.html and a remote script", rule: "REF-MISSING") { path in
                var zip = ZipBuilder()
                zip.file("slide.html", "<img src=\"gone.png\"><script src=\"https://cdn.example.com/a.js\"></script>")
                try zip.write(to: path)
            },
        ]

    private static func policy(workers: Int, contentPolicy: ContentPolicy = .install, budget: Policy = Policy())
        -> Policy
    {
        var policy = budget
        policy.workerCount = workers
        policy.contentPolicy = contentPolicy
        return policy
    }

    /// What an extraction left: the files and their bytes, or the findings it was refused with.
    private static func extract(_ zip: String, in folder: TemporaryDirectory, policy: Policy) async -> ExtractOutcome {
        let target = folder.appending("w\(policy.workerCount ?? 0)-\(policy.contentPolicy)/sources")
        try? FileManager.default.createDirectory(
            atPath: URL(fileURLWithPath: target).deletingLastPathComponent().path, withIntermediateDirectories: true)
        do {
            let staged = try await PackageExtractor(policy: policy, isDurable: false).extract(
                zipAt: zip, stagingFor: target)
            defer { try? FileSystem.removeTree(staged.stagingPath) }
            return .staged(
                tree: tree(staged.stagingPath), findings: staged.findings, files: staged.fileCount,
                bytes: staged.byteCount)
        } catch let error as ArchiveError {
            return .refused(error.code.description, error.findings)
        } catch {
            return .failed("\(error)")
        }
    }

    private enum ExtractOutcome: Equatable {
        case staged(tree: [String: Data], findings: [Finding], files: Int, bytes: Int64)
        case refused(String, [Finding])
        case failed(String)
    }

    /// Every file under `root` with its bytes, and every folder (as `path/`).
    private static func tree(_ root: String) -> [String: Data] {
        var result: [String: Data] = [:]
        for path in PackageFixtures.listing(root) {
            var isFolder: ObjCBool = false
            _ = FileManager.default.fileExists(atPath: root + "/" + path, isDirectory: &isFolder)
            let full = root + "/" + path
            result[path] = isFolder.boolValue ? Data("folder".utf8) : FileManager.default.contents(atPath: full)
        }
        return result
    }

    @Test(arguments: cases, [2, 4])
    func forcedWorkersFindWhatOneThreadFinds(_ package: HostileArchive, workers: Int) async throws {
        let folder = TemporaryDirectory()
        let zip = folder.appending("package.zip")
        try await package.write(to: zip)
        let one = try await PackageValidator(policy: Self.policy(workers: 1)).validate(zip)
        let many = try await PackageValidator(policy: Self.policy(workers: workers)).validate(zip)
        #expect(many.findings == one.findings)
        #expect(many.entryCount == one.entryCount)
        for contentPolicy in ContentPolicy.allCases {
            let single = await Self.extract(
                zip, in: folder, policy: Self.policy(workers: 1, contentPolicy: contentPolicy))
            let parallel = await Self.extract(
                zip, in: folder, policy: Self.policy(workers: workers, contentPolicy: contentPolicy))
            #expect(parallel == single, "\(contentPolicy)")
        }
    }

    @Test(arguments: [2, 4])
    func forcedWorkersRunAndUnpackAByteIdenticalTree(workers: Int) async throws {
        let folder = TemporaryDirectory()
        let zip = folder.appending("package.zip")
        try Self.crossReferencingPackage().write(to: zip)
        let single = await Self.extract(zip, in: folder, policy: Self.policy(workers: 1))
        let before = ParallelPlan.workerStarts
        let parallel = await Self.extract(zip, in: folder, policy: Self.policy(workers: workers))
        #expect(ParallelPlan.workerStarts - before >= workers)
        #expect(parallel == single)
        guard case .staged(let tree, let findings, let files, _) = parallel else {
            Issue.record("not staged: \(parallel)")
            return
        }
        #expect(files == 402)
        #expect(tree["slides/150.html"] != nil && tree["img/199.png"]?.count == 4_199)
        #expect(findings.filter { $0.rule.id == "REF-MISSING" }.count == 29)
    }

    @Test func progressFromEveryWorkerCountsTheWholePackage() async throws {
        let folder = TemporaryDirectory()
        let zip = folder.appending("package.zip")
        try PackageFixtures.noiseZip(files: 8).write(to: zip)
        let reports = Mutex<[PackageExtractor.Progress]>([])
        let staged = try await PackageExtractor(policy: Self.policy(workers: 2), isDurable: false).extract(
            zipAt: zip, stagingFor: folder.appending("sources")
        ) { progress in reports.withLock { $0.append(progress) } }
        defer { try? FileSystem.removeTree(staged.stagingPath) }
        #expect(reports.withLock { $0.map(\.bytesWritten).max() } == staged.byteCount)
        #expect(reports.withLock { $0.allSatisfy { $0.bytesExpected == staged.byteCount } })
    }

    @Test func theCoresCountedAreThoseTheAffinityMaskAllows() throws {
        // The kernel's own list (`taskset`, cpusets and containers narrow it) must be what the pool is sized by.
        let status = try String(contentsOfFile: "/proc/self/status", encoding: .utf8)
        let line = try #require(status.split(separator: "\n").first { $0.hasPrefix("Cpus_allowed_list:") })
        let ranges = line.dropFirst("Cpus_allowed_list:".count).split(separator: ",").map {
            $0.split(separator: "-").compactMap { Int($0.trimmingCharacters(in: .whitespaces)) }
        }
        let allowed = ranges.reduce(0) { $0 + ($1.count == 2 ? $1[1] - $1[0] + 1 : 1) }
        #expect(ParallelPlan.cores == allowed)
    }

    @Test(arguments: [2, 4])
    func aBombStopsEveryWorkerEarly(workers: Int) async throws {
        let folder = TemporaryDirectory()
        let zip = folder.appending("bomb.zip")
        var builder = ZipBuilder()
        builder.file("index.html", "<html></html>")
        for index in 0..<8 { builder.zeros("media/\(index).bin", count: 16 << 20) }
        try builder.write(to: zip)
        var bytes = try ZipBytes(contentsOf: zip)
        for index in 0..<8 { try bytes.setMethod(8, declaredSize: 1_000, onEntry: "media/\(index).bin") }
        try bytes.write(to: zip)
        var policy = Self.policy(workers: workers)
        policy.maxTotalSize = 8 << 20
        policy.maxCompressionRatio = 1 << 40  // only the shared total budget can stop this bomb
        let before = ParallelPlan.workerStarts
        let report = try await PackageValidator(policy: policy).validate(zip)
        #expect(ParallelPlan.workerStarts - before >= workers)
        #expect(report.findings.contains { $0.rule.id == "BUDGET-TOTAL-SIZE" }, "\(report.findings)")
        let alone = try await PackageValidator(policy: Self.policy(workers: 1, budget: policy)).validate(zip)
        #expect(report.findings == alone.findings)
        // Each worker stops within a block or two of the shared budget (128 MiB are declared by the data).
        #expect(report.byteCount <= policy.maxTotalSize + Int64(workers) * (2 << 20), "\(report.byteCount)")
    }

    @Test(arguments: [2, 4])
    func cancellingStopsEveryWorker(workers: Int) async throws {
        let folder = TemporaryDirectory()
        let zip = folder.appending("big.zip")
        try PackageFixtures.noiseZip(files: 16).write(to: zip)
        try FileManager.default.createDirectory(atPath: folder.appending("content"), withIntermediateDirectories: true)
        let before = PackageFixtures.listing(folder.path)
        let started = AsyncStream<Void>.makeStream()
        let release = DispatchSemaphore(value: 0)
        let task = Task {
            try await PackageExtractor(policy: Self.policy(workers: workers)).extract(
                zipAt: zip, stagingFor: folder.appending("content/sources")
            ) { _ in
                started.continuation.yield()
                release.wait()  // hold every worker until the task is cancelled
                release.signal()
            }
        }
        for await _ in started.stream { break }
        task.cancel()
        release.signal()
        await #expect(throws: CancellationError.self) { try await task.value }
        #expect(PackageFixtures.listing(folder.path) == before)
    }
}
