import Foundation
import SCLMArchive
import SCLMCore
import SCLMTestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// The archive half of a delta update, on real zips: the plan from a directory read through fetched ranges
/// and the installed files, the partial zip of the fetched entries, and the staged tree, which must equal a
/// full unpack of the new revision.
@Suite(.tags(.medium)) struct DeltaPlanTests {
    let folder = TemporaryDirectory()

    /// A package of `count` files; the files whose index is in `changed` get other bytes.
    static func package(count: Int, changed: Set<Int> = [], extra: [String: String] = [:]) -> ZipBuilder {
        var zip = ZipBuilder()
        zip.directory("img/")
        zip.file("index.html", "<!DOCTYPE html><html><body><img src=\"img/0.png\"></body></html>")
        for index in 0..<count {
            let byte = UInt8(truncatingIfNeeded: index &* 31 &+ (changed.contains(index) ? 7 : 0))
            let bytes = (0..<(20_000 + index * 37)).map { UInt8(truncatingIfNeeded: Int(byte) &+ $0 &* 13) }
            zip.file("img/\(index).png", bytes: bytes, compression: index % 2 == 0 ? .store : .deflate)
        }
        for (path, text) in extra { zip.file(path, text) }
        return zip
    }

    /// Writes `zip` and returns its path and bytes.
    func write(_ zip: ZipBuilder, as name: String) throws -> (path: String, bytes: [UInt8]) {
        let path = folder.appending(name)
        try zip.write(to: path)
        return (path, Array(try Data(contentsOf: URL(fileURLWithPath: path))))
    }

    /// Installs `zip` in full as `content/sources`.
    func installFull(_ path: String) async throws -> String {
        let target = folder.appending("content/sources")
        try FileManager.default.createDirectory(atPath: folder.appending("content"), withIntermediateDirectories: true)
        let staged = try await PackageExtractor().extract(zipAt: path, stagingFor: target)
        try PackageExtractor.installStaging(staged.stagingPath, as: target)
        return target
    }

    /// The directory of `bytes`, read as a delta update reads it: from the tail, fetching what is missing.
    static func directory(of bytes: [UInt8]) throws -> ZipDirectory {
        var ranges = FetchedRanges(size: UInt64(bytes.count))
        let tail = max(0, bytes.count - 1_000)
        ranges.add(Array(bytes[tail...]), at: UInt64(tail))
        while true {
            do {
                return try ZipDirectory.parse(ranges, size: UInt64(bytes.count), maxEntries: 20_000)
            } catch let missing as ZipBytesMissing {
                let start = Int(missing.offset)
                ranges.add(Array(bytes[start..<(start + missing.count)]), at: missing.offset)
            }
        }
    }

    /// The partial zip a delta update builds: the plan's ranges of `bytes` at their offsets, then the tail.
    func partial(_ plan: DeltaPlan, of bytes: [UInt8]) throws -> String {
        let path = folder.appending("partial.zip.delta")
        var sparse = [UInt8](repeating: 0, count: bytes.count)
        for range in plan.ranges {
            sparse.replaceSubrange(Int(range.start)..<Int(range.end), with: bytes[Int(range.start)..<Int(range.end)])
        }
        try Data(sparse + plan.directoryTail(at: UInt64(bytes.count))).write(to: URL(fileURLWithPath: path))
        return path
    }

    static func files(in root: String) -> [String: Data] {
        var files: [String: Data] = [:]
        for path in FileManager.default.subpaths(atPath: root) ?? [] {
            var isDirectory: ObjCBool = false
            _ = FileManager.default.fileExists(atPath: root + "/" + path, isDirectory: &isDirectory)
            files[path] = isDirectory.boolValue ? Data() : FileManager.default.contents(atPath: root + "/" + path)
        }
        return files
    }

    @Test func aDeltaBuildsTheTreeAFullUnpackWouldFromTheChangedEntriesOnly() async throws {
        let old = try write(Self.package(count: 60), as: "old.zip")
        let new = try write(Self.package(count: 59, changed: [3, 40], extra: ["added.css": "body {}"]), as: "new.zip")
        let target = try await installFull(old.path)
        let installed = try PackageManifest.current(of: target, recorded: nil)
        let plan = try DeltaPlan.make(
            try Self.directory(of: new.bytes), size: UInt64(new.bytes.count), installed: installed, policy: .standard)
        #expect(plan.fetchedFiles == 3)  // two changed, one added
        #expect(plan.reused.count == 58)  // index.html and 57 images
        #expect(plan.folders == ["img"])
        #expect(plan.fetchBytes < UInt64(new.bytes.count) / 4)
        let partial = try partial(plan, of: new.bytes)
        try plan.verifyFetched(partialAt: partial)
        let staged = try await PackageExtractor().extractDelta(
            partialZipAt: partial, plan: plan, installedPath: target, stagingFor: target)
        #expect(staged.reuse.values.reduce(0, +) == 58)
        let full = try await PackageExtractor().extract(zipAt: new.path, stagingFor: target)
        #expect(Self.files(in: staged.package.stagingPath) == Self.files(in: full.stagingPath))
        #expect(staged.package.findings == full.findings)
        #expect(staged.package.fileCount == full.fileCount)
    }

    @Test func bytesFromTheWrongPlaceDisagreeWithTheDirectory() async throws {
        let old = try write(Self.package(count: 20), as: "old.zip")
        let new = try write(Self.package(count: 20, changed: [5]), as: "new.zip")
        let target = try await installFull(old.path)
        let plan = try DeltaPlan.make(
            try Self.directory(of: new.bytes), size: UInt64(new.bytes.count),
            installed: try PackageManifest.current(of: target, recorded: nil), policy: .standard)
        var shifted = new.bytes
        shifted.removeFirst()
        shifted.append(0)
        #expect(throws: DeltaFallback.self) { try plan.verifyFetched(partialAt: try partial(plan, of: shifted)) }
    }

    @Test func moreThanHalfChangedIsRefusedAndAHostileDirectoryToo() async throws {
        let old = try write(Self.package(count: 20), as: "old.zip")
        let target = try await installFull(old.path)
        let installed = try PackageManifest.current(of: target, recorded: nil)
        let new = try write(Self.package(count: 20, changed: Set(0..<15)), as: "new.zip")
        #expect(throws: DeltaFallback.self) {
            try DeltaPlan.make(
                try Self.directory(of: new.bytes), size: UInt64(new.bytes.count), installed: installed,
                policy: .standard)
        }
        var hostile = Self.package(count: 20)
        hostile.file("../escape.html", "x")
        let bad = try write(hostile, as: "bad.zip")
        #expect(throws: DeltaFallback.self) {
            try DeltaPlan.make(
                try Self.directory(of: bad.bytes), size: UInt64(bad.bytes.count), installed: installed,
                policy: .standard)
        }
    }

    @Test func aFileWhoseStatChangedIsHashedAgain() async throws {
        let old = try write(Self.package(count: 5), as: "old.zip")
        let target = try await installFull(old.path)
        let files = try PackageManifest.declaredFiles(ofZipAt: old.path)
        let manifest = PackageManifest.record(files, in: target)
        #expect(manifest.count == 6)
        let trusted = try PackageManifest.current(of: target, recorded: manifest)
        #expect(trusted["img/2.png"]?.crc32 == files.first { $0.path == "img/2.png" }?.crc32)
        let handle = try #require(FileHandle(forWritingAtPath: target + "/img/2.png"))
        try handle.write(contentsOf: Data("edit".utf8))
        try handle.close()
        let current = try PackageManifest.current(of: target, recorded: manifest)
        #expect(current["img/2.png"]?.crc32 == (try PackageManifest.crc32(ofFileAt: target + "/img/2.png")))
        #expect(current["img/2.png"] != trusted["img/2.png"])
        #expect(current["index.html"] == trusted["index.html"])
    }

    @Test func rangesCoalesceAcrossSmallGapsAndSplitLargeOnes() {
        let ranges = DeltaPlan.coalesce([
            DeltaPlan.ByteRange(start: 0, end: 100), DeltaPlan.ByteRange(start: 100 + 64 * 1024, end: 200_000),
            DeltaPlan.ByteRange(start: 300_000, end: 300_000 + 20 * 1024 * 1024),
        ])
        #expect(ranges.first == DeltaPlan.ByteRange(start: 0, end: 200_000))
        #expect(ranges.count == 4)
        #expect(ranges.dropFirst().allSatisfy { $0.count <= DeltaPlan.maxRequest })
        #expect(ranges.last?.end == 300_000 + 20 * 1024 * 1024)
    }

    @Test func aDirectoryTailPastFourGiBUsesZip64Records() throws {
        let new = try write(Self.package(count: 3), as: "new.zip")
        let target = folder.appending("none")
        try FileManager.default.createDirectory(atPath: target, withIntermediateDirectories: true)
        // Everything is fetched: the size given only keeps the plan under the half-the-package limit.
        let plan = try DeltaPlan.make(
            try Self.directory(of: new.bytes), size: UInt64(new.bytes.count) * 4, installed: [:], policy: .standard)
        let offset: UInt64 = 5 << 30
        let tail = plan.directoryTail(at: offset)
        var ranges = FetchedRanges(size: offset + UInt64(tail.count))
        ranges.add([UInt8](repeating: 0, count: 1 << 17) + tail, at: offset - (1 << 17))
        let directory = try ZipDirectory.parse(ranges, size: offset + UInt64(tail.count), maxEntries: 100)
        #expect(directory.entryCount == plan.fetchedFiles)
        #expect(throws: ZipBytesMissing.self) { try ranges.bytes(at: Checked(0), count: 4) }
    }
}
