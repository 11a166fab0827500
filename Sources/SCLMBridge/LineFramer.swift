import SCLMCore

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// One unit of NDJSON input: a complete line, or the note that a line was too long and skipped.
package enum Frame: Sendable, Equatable {
    /// The bytes of one line without its `\n` (and without a trailing `\r`). Never blank.
    case line([UInt8])
    /// A line of `byteCount` bytes exceeded the limit and was discarded up to its newline.
    case overlong(byteCount: Int)
}

/// Splits a byte stream into lines (the framing of docs/bridge.md), bounded in memory.
///
/// Bytes are buffered until a `\n`; only complete lines are handed out, so a read that ends in the
/// middle of a line or of a multi-byte UTF-8 character is never decoded early. A trailing `\r` is
/// dropped and blank (whitespace-only) lines are skipped. A line longer than ``maximumLineBytes`` is
/// not buffered: the framer switches to discarding until the next `\n` and then reports one
/// ``Frame/overlong(byteCount:)``, so framing resynchronises on the next line.
package struct LineFramer: Sendable {
    /// The longest line kept, in bytes (without the newline).
    package let maximumLineBytes: Int
    private var partial: [UInt8] = []
    private var discarded = 0
    private var isDiscarding = false

    /// Creates a framer that keeps lines of up to `maximumLineBytes` bytes.
    package init(maximumLineBytes: Int) {
        self.maximumLineBytes = max(1, maximumLineBytes)
    }

    /// Consumes `chunk` and appends every line it completes to `frames`.
    package mutating func append(_ chunk: UnsafeRawBufferPointer, to frames: inout [Frame]) {
        let bytes = chunk.bindMemory(to: UInt8.self)
        var start = 0
        while start < bytes.count {
            guard let newline = Self.firstNewline(in: bytes, from: start) else {
                accumulate(UnsafeBufferPointer(rebasing: bytes[start...]))
                return
            }
            let piece = UnsafeBufferPointer(rebasing: bytes[start..<newline])
            if isDiscarding || partial.count + piece.count > maximumLineBytes {
                frames.append(.overlong(byteCount: Self.total(discarded, partial.count, piece.count)))
                resetLine()
            } else if partial.isEmpty {
                Self.emit(piece, to: &frames)
            } else {
                partial.append(contentsOf: piece)
                emitPartial(to: &frames)
            }
            start = newline + 1
        }
    }

    /// Convenience for tests and small inputs.
    package mutating func append(_ chunk: [UInt8], to frames: inout [Frame]) {
        chunk.withUnsafeBytes { append($0, to: &frames) }
    }

    /// Ends the stream: a last line without a newline is still a line (or overlong).
    package mutating func finish(to frames: inout [Frame]) {
        if isDiscarding {
            frames.append(.overlong(byteCount: Self.total(discarded, partial.count)))
        } else if !partial.isEmpty {
            emitPartial(to: &frames)
        }
        resetLine()
    }

    private mutating func accumulate(_ piece: UnsafeBufferPointer<UInt8>) {
        if isDiscarding {
            discarded = Self.total(discarded, piece.count)
        } else if partial.count + piece.count > maximumLineBytes {
            isDiscarding = true
            discarded = partial.count + piece.count
            partial = []
        } else {
            partial.append(contentsOf: piece)
        }
    }

    /// The sum of byte counts, through ``Checked``: a peer sending an endless line (2^63 bytes, in
    /// principle) gets `Int.max` reported, never a trap.
    private static func total(_ counts: Int...) -> Int {
        Checked.sum(counts.map { Checked($0) })?.value ?? Int.max
    }

    private mutating func resetLine() {
        partial.removeAll(keepingCapacity: partial.capacity <= 1 << 16)
        discarded = 0
        isDiscarding = false
    }

    private static func emit(_ piece: UnsafeBufferPointer<UInt8>, to frames: inout [Frame]) {
        var end = piece.count
        if end > 0, piece[end - 1] == 0x0D { end -= 1 }
        let line = UnsafeBufferPointer(rebasing: piece[0..<end])
        guard !isBlank(line) else { return }
        frames.append(.line(Array(line)))
    }

    /// Emits the buffered line (a line that arrived over several reads) and starts a new one.
    private mutating func emitPartial(to frames: inout [Frame]) {
        if partial.last == 0x0D { partial.removeLast() }
        if !partial.withUnsafeBufferPointer(Self.isBlank) { frames.append(.line(partial)) }
        partial = []
    }

    private static func isBlank(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        bytes.allSatisfy { $0 == 0x20 || $0 == 0x09 || $0 == 0x0D }
    }

    private static func firstNewline(in bytes: UnsafeBufferPointer<UInt8>, from start: Int) -> Int? {
        guard let base = bytes.baseAddress, let found = memchr(base + start, 0x0A, bytes.count - start) else {
            return nil
        }
        return base.distance(to: found.assumingMemoryBound(to: UInt8.self))
    }
}
