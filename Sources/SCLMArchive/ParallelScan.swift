import CArchive
import SCLMCore
import Synchronization

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// The state the workers of one package share: the bytes decompressed by all of them (the total-size
/// budget is one counter, so a bomb stops every worker early) and the first entry where the package
/// stopped (a worker past it stops too).
final class SharedBudget: Sendable {
    private let bytes = Atomic<Int64>(0)
    private let stopEntry = Atomic<Int>(Int.max)

    /// Adds `count` bytes; returns the package's total so far.
    func add(_ count: Int) -> Int64 { bytes.add(Int64(count), ordering: .relaxed).newValue }

    /// The bytes decompressed so far by every worker.
    var byteCount: Int64 { bytes.load(ordering: .relaxed) }

    /// The package stops at entry `entry` (-1: at once, a worker failed).
    func stop(at entry: Int) { stopEntry.min(entry, ordering: .relaxed) }

    /// Whether the package stopped at an entry before `entry`.
    func isStopped(before entry: Int) -> Bool { stopEntry.load(ordering: .relaxed) < entry }
}

/// How many workers read a package, and which entries each takes; one limit for the whole process.
///
/// A worker is one libarchive reader over its own view of the same file (``ZipView``), reading the entries whose
/// position falls in its share (a contiguous run, balanced by declared size) and skipping the others
/// (libarchive's seekable reader seeks past their data). The thread that scans the package is always one
/// worker; the others come from the process-wide pool of `cores - 1` helper slots, taken without waiting,
/// so packages unpacked at the same time share the cores instead of multiplying threads.
package enum ParallelPlan {
    /// Packages smaller than this (declared bytes) stay on one thread.
    static let minimumBytes: Int64 = 8 << 20
    /// Packages with fewer entries than this stay on one thread.
    static let minimumEntries = 64

    /// The processors this process may run on (its affinity mask), else the processors online.
    package static let cores: Int = {
        let allowed = Int(sclm_archive_allowed_processors())
        return max(1, allowed > 0 ? allowed : sysconf(Int32(_SC_NPROCESSORS_ONLN)))
    }()

    private static let helpers = HelperSlots(cores - 1)
    private static let starts = Atomic<Int>(0)

    /// Workers started since the process began (for tests: a forced count really ran in parallel).
    package static var workerStarts: Int { starts.load(ordering: .relaxed) }

    /// Counts one worker start.
    static func noteWorkerStart() { starts.add(1, ordering: .relaxed) }

    /// Runs `body` with the number of workers for a package of `entries` entries declaring `bytes`: the
    /// forced count (``Policy/workerCount``, else `SCLM_UNPACK_WORKERS`), else 1 for a small package, else
    /// this thread plus the helper slots free now (returned when `body` ends).
    static func withWorkers<T>(entries: Int, bytes: Int64, policy: Policy, _ body: (Int) throws -> T) rethrows -> T {
        if let forced = policy.workerCount ?? environmentCount { return try body(max(1, forced)) }
        guard bytes >= minimumBytes, entries >= minimumEntries else { return try body(1) }
        let extra = helpers.take(upTo: min(cores, entries) - 1)
        defer { helpers.give(extra) }
        return try body(1 + extra)
    }

    private static let environmentCount: Int? = getenv("SCLM_UNPACK_WORKERS").flatMap { Int(String(cString: $0)) }

    /// Cuts the entries (in local-header order, libarchive's order) into `count` contiguous shares of
    /// about equal weight (declared size plus a fixed cost per entry); the last share is open-ended.
    static func shares(of directory: ZipDirectory, count: Int) -> [Range<Int>] {
        let weights = directory.records.sorted { $0.localHeaderOffset < $1.localHeaderOffset }
            .map { Double($0.uncompressedSize.value) + 32_768 }
        let total = weights.reduce(0, +)
        var cuts = [0]
        var running = 0.0
        for (index, weight) in weights.enumerated() where cuts.count < count {
            running += weight
            if running >= total * Double(cuts.count) / Double(count) { cuts.append(index + 1) }
        }
        while cuts.count < count { cuts.append(cuts.last ?? 0) }
        cuts.append(Int.max)
        return (0..<count).map { cuts[$0]..<cuts[$0 + 1] }
    }
}

/// The helper threads free for package workers, process-wide.
private final class HelperSlots: Sendable {
    private let free: Atomic<Int>

    init(_ count: Int) { free = Atomic(max(0, count)) }

    /// Takes up to `wanted` slots without waiting; returns how many it took.
    func take(upTo wanted: Int) -> Int {
        var current = free.load(ordering: .relaxed)
        while true {
            let taken = min(max(0, wanted), current)
            if taken == 0 { return 0 }
            let (exchanged, original) = free.compareExchange(
                expected: current, desired: current - taken, ordering: .acquiringAndReleasing)
            if exchanged { return taken }
            current = original
        }
    }

    /// Returns `count` slots.
    func give(_ count: Int) { if count > 0 { free.add(count, ordering: .relaxed) } }
}
