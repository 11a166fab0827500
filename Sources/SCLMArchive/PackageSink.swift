/// Receives the entries of a package that pass the policy, in archive order, as they stream past.
///
/// ``PackageValidator`` uses ``DiscardingSink`` (nothing is ever written); ``PackageExtractor`` uses a
/// sink that writes a staging folder. Paths are normalised, relative and already checked. A sink is a value
/// (descriptors and counts) that a parallel pass hands to its workers, one copy each (``makeWorker()``).
protocol PackageSink: Sendable {
    /// Whether reading stops at the first error that refuses the package (extraction) or goes on to find
    /// every problem (validation).
    var stopsAtFirstError: Bool { get }
    /// The central directory passed its checks; `expectedBytes` of file data are declared to follow.
    mutating func begin(expectedBytes: Int64) throws
    /// A folder entry.
    mutating func directory(_ path: String) throws
    /// A regular file starts; its data follows through ``write(_:)``.
    mutating func beginFile(_ path: String, modificationTime: Int?) throws
    /// The next bytes of the current file.
    mutating func write(_ bytes: UnsafeRawBufferPointer) throws
    /// The current file is complete and verified.
    mutating func endFile() throws
    /// A sink for one worker of a parallel pass, feeding the same destination (after ``begin(expectedBytes:)``).
    func makeWorker() throws -> Self
    /// Takes back a worker's sink once its worker has ended: its counts join this one, its resources close.
    mutating func absorb(_ worker: inout Self)
}

/// A sink that keeps nothing: validation reads every entry but writes nothing to disk.
struct DiscardingSink: PackageSink {
    var stopsAtFirstError: Bool { false }
    func begin(expectedBytes: Int64) {}
    func directory(_ path: String) {}
    func beginFile(_ path: String, modificationTime: Int?) {}
    func write(_ bytes: UnsafeRawBufferPointer) {}
    func endFile() {}
    func makeWorker() -> DiscardingSink { self }
    func absorb(_ worker: inout DiscardingSink) {}
}
