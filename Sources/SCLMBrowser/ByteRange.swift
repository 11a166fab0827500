import Foundation
import SCLMCore

/// A single `Range: bytes=…` request resolved against a file size, bounded to a chunk.
///
/// `bytes=A-B`, `bytes=A-` and `bytes=-N` are understood; a range that starts past the end is
/// unsatisfiable (416). The answered slice never exceeds `maximumChunk`, so a long video is served in
/// bounded pieces and the media player asks for the next one.
package struct ByteRange: Equatable {
    /// First byte answered.
    package var start: Int64
    /// Last byte answered (inclusive).
    package var end: Int64

    /// Bytes in the slice.
    var count: Int64 { end - start + 1 }

    /// Resolves `header` against `size`: `nil` when the header is not one byte range (serve the whole file),
    /// `.failure` when it cannot be satisfied.
    package static func resolve(_ header: String, size: Int64, maximumChunk: Int64) -> Result<ByteRange, Unsatisfiable>?
    {
        let text = header.trimmingCharacters(in: .whitespaces).lowercased()
        guard text.hasPrefix("bytes="), !text.contains(",") else { return nil }
        let spec = text.dropFirst("bytes=".count)
        guard let dash = spec.firstIndex(of: "-") else { return nil }
        let first = spec[..<dash].trimmingCharacters(in: .whitespaces)
        let last = spec[spec.index(after: dash)...].trimmingCharacters(in: .whitespaces)
        var start: Int64
        var end: Int64
        if first.isEmpty {
            guard let suffix = Int64(last), suffix > 0 else { return nil }
            start = max(0, Checked(size).minus(suffix)?.value ?? 0)
            end = size - 1
        } else {
            guard let from = Int64(first) else { return nil }
            start = from
            end = last.isEmpty ? size - 1 : (Int64(last) ?? size - 1)
        }
        guard start < size, start <= end else { return .failure(Unsatisfiable()) }
        // The page's numbers go through Checked: a start near 2^63 cannot make the chunk's end trap.
        let chunkEnd = Checked(start).plus(maximumChunk)?.minus(1)?.value ?? Int64.max
        end = min(end, size - 1, chunkEnd)
        return .success(ByteRange(start: start, end: end))
    }

    /// A range that lies outside the file.
    package struct Unsatisfiable: Error, Equatable {}
}
