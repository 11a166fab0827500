import Foundation

/// The state of one pass over a package: findings so far, the names seen, the content facts gathered and
/// the running byte budget. Shared by the zip and folder readers, for validation and extraction alike.
struct PackageScan {
    let policy: Policy
    private(set) var findings: [Finding] = []
    /// Every finding recorded, to drop an identical repeat (the same rule, target, line and message).
    private var seen: Set<Finding> = []
    /// The entries in the package (as declared by a zip, or found in a folder).
    var entryCount = 0
    /// The bytes of file data the package declares (the zip's central directory), 0 when unknown.
    var declaredBytes: Int64 = 0
    /// The bytes of file data read (decompressed) so far.
    private(set) var byteCount: Int64 = 0
    /// The names files and folders will have once unpacked: what references resolve against.
    var contentIndex = PathIndex()
    /// The facts of every HTML, CSS and JavaScript file read completely.
    var files: [FileFacts] = []
    /// Set when reading must end early (a bomb, a fatal archive error).
    var isStopped = false {
        didSet {
            if isStopped, !oldValue, journal != nil { journal?.append(JournalEntry(entry: entryIndex, event: .stop)) }
        }
    }
    /// The position (in libarchive's order) of the entry being read; tags what a worker records.
    var entryIndex = 0
    /// A worker's record of what it found, tagged with entry positions (`nil` for a scan that is not a
    /// worker's); ``merge(_:stopsAtFirstError:)`` replays the journals of every worker in entry order.
    private(set) var journal: [JournalEntry]?
    /// The budget shared by the workers of one package, `nil` on a single thread.
    private(set) var shared: SharedBudget?
    /// Whether a finding that refuses an extraction under ``policy`` was recorded.
    private(set) var hasRefusals = false

    init(policy: Policy) { self.policy = policy }

    /// The scan of one worker of a parallel pass: it records into a journal and counts bytes against
    /// `shared` as well as its own.
    init(workerOf policy: Policy, shared: SharedBudget) {
        self.policy = policy
        self.shared = shared
        self.journal = []
    }

    /// Records `finding` unless an identical one (``identity(of:)``: same rule, path, line, message and fix) was
    /// already recorded: two different problems on one line (two swipe metas, two `url()`s of a minified
    /// stylesheet) are two findings, while the same problem seen twice (a name checked in the directory and
    /// again in the data pass) is one.
    mutating func report(_ finding: Finding) {
        guard seen.insert(Self.identity(of: finding)).inserted else { return }
        findings.append(finding)
        journal?.append(JournalEntry(entry: entryIndex, event: .finding(finding)))
        if policy.refuses(finding) { hasRefusals = true }
    }

    /// What makes two findings the same: all of it, except that an entry over the per-file budget is one
    /// problem whether its declared size or its data showed it (the first message, the declared size, is kept).
    private static func identity(of finding: Finding) -> Finding {
        finding.rule == .budgetFileSize ? Finding(.budgetFileSize, path: finding.path, message: "") : finding
    }

    /// Adds the unpacked name `path` to the content index (a worker defers this to the merge, where the
    /// names of every share meet).
    mutating func index(_ path: String, isDirectory: Bool) {
        if journal != nil {
            journal?.append(JournalEntry(entry: entryIndex, event: .name(path, isDirectory: isDirectory)))
        } else {
            report(contentIndex.insert(path, isDirectory: isDirectory))
        }
    }

    /// Keeps the facts of a file read completely.
    mutating func add(_ facts: FileFacts) {
        if journal != nil {
            journal?.append(JournalEntry(entry: entryIndex, event: .file(facts)))
        } else {
            files.append(facts)
        }
    }

    /// The bytes decompressed so far by every worker of the package (this scan's alone on one thread).
    var totalByteCount: Int64 { shared?.byteCount ?? byteCount }

    /// Records every finding of `findings`.
    mutating func report(_ findings: [Finding]) {
        for finding in findings { report(finding) }
    }

    /// Whether the reader should stop: the package is stopped, or `sink` stops at the first refusing error
    /// and one occurred (which stops the package: the entries not read yet must not feed the content rules,
    /// or an extraction refused for a bad CRC would also report a missing index.html).
    mutating func shouldStop(for sink: some PackageSink) -> Bool {
        shouldStop(stopsAtFirstError: sink.stopsAtFirstError)
    }

    /// ``shouldStop(for:)`` for a sink that does (or does not) stop at the first refusing error.
    mutating func shouldStop(stopsAtFirstError: Bool) -> Bool {
        if stopsAtFirstError && hasRefusals { isStopped = true }
        return isStopped
    }

    /// Adds `count` bytes read by a worker to this scan's total.
    mutating func addBytes(_ count: Int64) { byteCount += count }

    /// Counts `count` more bytes of the file at `path`, which has produced `fileBytes` (these included) from
    /// `compressedBytes` of input (`nil` for folders); returns the budget finding that ends the file, if any.
    ///
    /// Exceeding the total budget also stops the package.
    mutating func count(_ count: Int, path: String, fileBytes: Int64, compressedBytes: Int64?) -> Finding? {
        byteCount += Int64(count)
        if (shared?.add(count) ?? byteCount) > policy.maxTotalSize {
            isStopped = true
            // No entry is named: with several workers the one that crosses the shared total depends on timing,
            // and the total is the whole package's anyway.
            return Finding(
                .budgetTotalSize,
                message: "the package unpacks to more than \(ByteCount.format(policy.maxTotalSize)) (total budget)",
                fix: "Shrink the media or raise --max-size above \(ByteCount.format(policy.maxTotalSize)).")
        }
        if fileBytes > policy.maxFileSize {
            return Finding(
                .budgetFileSize, path: path,
                message: "the file unpacks to more than \(ByteCount.format(policy.maxFileSize)) (per-file budget)")
        }
        if let compressedBytes, fileBytes >= policy.ratioFloor,
            fileBytes > policy.maxCompressionRatio * max(compressedBytes, 1)
        {
            let ratio = fileBytes / max(compressedBytes, 1)
            return Finding(
                .budgetRatio, path: path,
                message: "\(ByteCount.format(compressedBytes)) expanded to over \(ByteCount.format(fileBytes)) "
                    + "(\(ratio):1, budget \(policy.maxCompressionRatio):1); reading stopped")
        }
        return nil
    }

    /// The final findings: content rules applied, duplicates removed, in report order.
    mutating func finish() -> [Finding] {
        if policy.checksContent, !isStopped, !hasStructuralErrors {
            report(ContentRules(files: files, index: contentIndex).evaluate())
        }
        return findings.sorted(by: Finding.reportOrder)
    }

    /// Whether an archive-level error means the entry list is incomplete (content rules would mislead).
    private var hasStructuralErrors: Bool {
        findings.contains { [.archiveNotZip, .archiveTruncated, .budgetEntryCount].contains($0.rule) }
    }
}

/// Human-readable byte counts (binary units), for messages.
package enum ByteCount {
    /// `bytes` as `512 B`, `1.5 KiB`, `12.0 MiB`, `2.0 GiB`.
    package static func format(_ bytes: Int64) -> String {
        let units = ["B", "KiB", "MiB", "GiB", "TiB"]
        var value = Double(bytes)
        var unit = 0
        while value >= 1024, unit < units.count - 1 {
            value /= 1024
            unit += 1
        }
        return unit == 0 ? "\(bytes) B" : "\((value * 10).rounded() / 10) \(units[unit])"
    }

    /// Parses `text` as a byte count: digits with an optional binary suffix (`K`, `KiB`, `M`, `MiB`, `G`, `GiB`, `T`).
    package static func parse(_ text: String) -> Int64? {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        let digits = trimmed.prefix { $0.isASCII && $0.isNumber }
        guard !digits.isEmpty, let number = Int64(digits) else { return nil }
        let shifts: [String: Int64] = [
            "": 0, "b": 0, "k": 10, "kb": 10, "kib": 10, "m": 20, "mb": 20, "mib": 20, "g": 30, "gb": 30, "gib": 30,
            "t": 40, "tb": 40, "tib": 40,
        ]
        guard let shift = shifts[trimmed.dropFirst(digits.count).trimmingCharacters(in: .whitespaces).lowercased()]
        else { return nil }
        let (result, overflow) = number.multipliedReportingOverflow(by: 1 << shift)
        return overflow ? nil : result
    }
}
