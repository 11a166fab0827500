import Foundation
import SCLMArchive
import SCLMCore
import SCLMStore

/// `sclm-bench`: the Swift side of the benchmarks in `bench/` (driven by `bench/run.py`).
///
/// Each subcommand does one measured operation and prints `{"seconds": …, …}` as one JSON line.
@main
struct BenchMain {
    static func main() async throws {
        let arguments = Array(CommandLine.arguments.dropFirst())
        switch arguments.first {
        case "upsert":
            try UpsertBenchmark(arguments: Array(arguments.dropFirst())).run()
        case "unpack":
            try await UnpackBenchmark(arguments: Array(arguments.dropFirst())).run()
        case "json":
            try JSONBenchmark(arguments: Array(arguments.dropFirst())).run()
        case "image":
            try ImageBenchmark(arguments: Array(arguments.dropFirst())).run()
        default:
            let usage = """
                usage: sclm-bench upsert --db PATH --rows N [--clients N]
                       sclm-bench unpack --zip PATH --target DIR [--no-sync]
                       sclm-bench json --lines N [--only serialization|codable|parser]
                       sclm-bench image --old PNG --new PNG [--runs N]

                """
            FileHandle.standardError.write(Data(usage.utf8))
            exit(64)
        }
    }
}

/// The value after `name` in `arguments`.
func value(_ name: String, in arguments: [String]) -> String? {
    arguments.firstIndex(of: name).flatMap { arguments.indices.contains($0 + 1) ? arguments[$0 + 1] : nil }
}

/// Unpacks one package the way sync installs it: `PackageExtractor` into a staging folder next to the
/// target, then `installStaging`. With `--no-sync` the staging tree is not flushed to disk (like `bsdtar -xf`).
struct UnpackBenchmark {
    let zip: String
    let target: String
    let isDurable: Bool

    init(arguments: [String]) throws {
        guard let zip = value("--zip", in: arguments), let target = value("--target", in: arguments) else {
            throw SCLMError(.usage, "unpack needs --zip PATH --target DIR")
        }
        self.zip = zip
        self.target = target
        self.isDurable = !arguments.contains("--no-sync")
    }

    func run() async throws {
        let start = ContinuousClock.now
        let staged = try await PackageExtractor(isDurable: isDurable).extract(zipAt: zip, stagingFor: target)
        try PackageExtractor.installStaging(staged.stagingPath, as: target)
        let elapsed = (ContinuousClock.now - start).inSeconds
        print(#"{"seconds": \#(elapsed), "bytes": \#(staged.byteCount), "files": \#(staged.fileCount)}"#)
    }
}

/// Upserts synthetic presentation rows into a fresh sclm database in one transaction.
struct UpsertBenchmark {
    let databasePath: String
    let rows: Int
    let clients: Int

    init(arguments: [String]) throws {
        guard let path = value("--db", in: arguments), let rows = value("--rows", in: arguments).flatMap(Int.init)
        else {
            throw SCLMError(.usage, "upsert needs --db PATH --rows N")
        }
        self.databasePath = path
        self.rows = rows
        self.clients = value("--clients", in: arguments).flatMap(Int.init) ?? 100
    }

    /// The row generator shared with `bench/bench_upsert.py`: the same values on both sides.
    static func record(_ index: Int, clients: Int) -> PresentationRecord {
        PresentationRecord(
            presentationId: Int64(index), clientId: Int64(index % clients + 1), name: "Presentation \(index)",
            shortDescription: "Short description \(index)", longDescription: nil,
            imgId: "https://example.invalid/images/\(index).png", order: Int64(index % 50), revision: Int64(index % 7),
            created: "2016-12-27T11:06:14.447", updatedDate: "2016-12-27T11:09:49.187", mapEnabled: true,
            needConfirmation: index % 2 == 0, previewMode: 1, visibility: true)
    }

    func run() throws {
        let db = try Database(path: databasePath)
        try Migrator.sclm.migrate(db)
        try db.write { db in
            try db.upsert((1...clients).map { ClientRecord(clientId: Int64($0), name: "Client \($0)") })
        }
        let records = (0..<rows).map { UpsertBenchmark.record($0, clients: clients) }
        let start = ContinuousClock.now
        try db.write { db in try db.upsertPresentations(records) }
        let elapsed = (ContinuousClock.now - start).inSeconds
        let count = try db.catalogCounts().presentations
        print(#"{"seconds": \#(elapsed), "rows": \#(count)}"#)
    }
}
