/// The budgets a package must stay within, shared by ``PackageValidator`` and ``PackageExtractor``.
///
/// Budgets are enforced while reading, on the bytes actually decompressed; the sizes a zip declares are
/// only used to refuse early, never trusted to be small. Defaults:
///
/// | budget | default | rule |
/// | --- | --- | --- |
/// | ``maxTotalSize`` | 2 GiB unpacked | `BUDGET-TOTAL-SIZE` |
/// | ``maxFileSize`` | 1 GiB per file | `BUDGET-FILE-SIZE` |
/// | ``maxEntryCount`` | 20,000 entries | `BUDGET-ENTRY-COUNT` |
/// | ``maxCompressionRatio`` | 200 : 1 per entry, once it has produced ``ratioFloor`` (1 MiB) | `BUDGET-RATIO` |
/// | ``maxDepth`` | 32 folder levels | `BUDGET-DEPTH` |
///
/// Real content stays far below these: StoryCLM packages are tens to hundreds of MiB in a few thousand
/// files, and images, video and fonts barely compress. DEFLATE itself cannot exceed about 1,032 : 1, so the
/// ratio budget catches runs of zeros and other bomb payloads long before the size budgets do.
package struct Policy: Sendable, Equatable {
    /// The most bytes the whole package may unpack to.
    package var maxTotalSize: Int64 = 2 << 30
    /// The most bytes one file may unpack to.
    package var maxFileSize: Int64 = 1 << 30
    /// The most entries (files and folders) a package may hold.
    package var maxEntryCount: Int = 20_000
    /// The most an entry may expand relative to its compressed size, once it has produced ``ratioFloor``.
    package var maxCompressionRatio: Int64 = 200
    /// The output an entry may produce before the ratio budget applies (small files compress well legitimately).
    package var ratioFloor: Int64 = 1 << 20
    /// The deepest folder nesting allowed (`a/b/c.png` has depth 3).
    package var maxDepth: Int = 32
    /// Whether the content rules (start slide, references, swipe targets, storyclm.js, HTML) run.
    package var checksContent: Bool = true
    /// Whether a content error refuses an extraction (safety errors always do). Validation reports every
    /// finding whatever this says.
    package var contentPolicy: ContentPolicy = .install
    /// How many workers read a zip's entries (an internal knob for tests and benchmarks); `nil` picks from
    /// the cores and the package size (the `SCLM_UNPACK_WORKERS` environment variable, when set, forces it).
    package var workerCount: Int?
    /// The disk space an unpack leaves free besides the package (`sync.diskReserve`).
    package var diskReserve: DiskReserve = .scaled

    /// The default budgets.
    package init() {}

    /// The default policy.
    package static let standard = Policy()

    /// Whether `finding` refuses an extraction: a safety error always, a content error under
    /// ``ContentPolicy/refuse``, a warning never.
    package func refuses(_ finding: Finding) -> Bool {
        guard finding.severity == .error else { return false }
        return finding.ruleClass == .safety || contentPolicy == .refuse
    }
}
