/// A sink that keeps, for every file that passes the policy, its size and SHA-256, and the bytes of its HTML
/// files (for their text); nothing is written to disk. It stops at the first error that refuses the package,
/// as an extraction does.
struct DigestSink: PackageSink {
    /// The files read completely, by package path.
    private(set) var files: [String: PackageFile] = [:]
    /// The bytes of the HTML files read completely, by package path.
    private(set) var html: [String: [UInt8]] = [:]
    private var path: String?
    private var hasher: SHA256Hasher?
    private var size: Int64 = 0
    private var bytes: [UInt8]?

    var stopsAtFirstError: Bool { true }
    func begin(expectedBytes: Int64) {}
    func directory(_ path: String) {}

    mutating func beginFile(_ path: String, modificationTime: Int?) {
        self.path = path
        hasher = SHA256Hasher()
        size = 0
        bytes = ContentAnalyzer.kind(of: path) == .html ? [] : nil
    }

    mutating func write(_ block: UnsafeRawBufferPointer) {
        hasher?.update(block)
        size += Int64(block.count)
        bytes?.append(contentsOf: block)
    }

    mutating func endFile() {
        if let path, let hasher {
            files[path] = PackageFile(size: size, sha256: hasher.finish())
            if let bytes { html[path] = bytes }
        }
        path = nil
        hasher = nil
        bytes = nil
    }

    func makeWorker() -> DigestSink { DigestSink() }

    mutating func absorb(_ worker: inout DigestSink) {
        files.merge(worker.files) { kept, _ in kept }
        html.merge(worker.html) { kept, _ in kept }
    }
}
