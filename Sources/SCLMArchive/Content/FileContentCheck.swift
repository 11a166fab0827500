/// The content rules on one file alone, from its bytes (the content fuzz target's entry point).
package enum FileContentCheck {
    /// The content findings of a package that holds only `bytes` at `path`, read in chunks of `chunkSize`
    /// bytes as an archive hands them over: the HTML, CSS and script tokenizers, reference extraction and
    /// the reference and swipe checks, on bytes alone.
    package static func findings(ofFile path: String, _ bytes: [UInt8], chunkSize: Int) -> [Finding] {
        guard var analyzer = ContentAnalyzer(path: path) else { return [] }
        let step = max(1, chunkSize)
        bytes.withUnsafeBytes { buffer in
            var start = 0
            while start < buffer.count {
                let end = min(buffer.count, start + step)
                analyzer.consume(UnsafeRawBufferPointer(rebasing: buffer[start..<end]))
                start = end
            }
        }
        var index = PathIndex()
        var findings = index.insert(path, isDirectory: false)
        findings += ContentRules(files: [analyzer.finish()], index: index).evaluate()
        return findings
    }
}
