#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Finds the first call into the StoryCLM JavaScript API (`StoryCLM.` or `StoryCLMBridge.`) in a stream of
/// script bytes, with its line.
///
/// The match is textual: a mention in a comment counts too, which errs on the side of asking for
/// storyclm.js. Chunks may split the name anywhere.
struct APIUsageScanner {
    private static let name = Array("StoryCLM".utf8)

    /// The line of the first use, once found.
    private(set) var firstUseLine: Int?
    private var line: Int
    private var matched = 0

    /// Creates a scanner whose first byte is on `line`.
    init(line: Int = 1) { self.line = line }

    /// Scans the next chunk.
    mutating func feed(_ bytes: some Sequence<UInt8>) {
        guard firstUseLine == nil else { return }
        for byte in bytes where step(byte) { return }
    }

    /// Scans the next chunk of a file. Outside a partial match, `memchr` jumps to the next `S` and the line
    /// breaks passed are counted in one loop the compiler vectorises: a large script costs two fast passes,
    /// not a step per byte (which was a tenth of the CPU time of validating a deck of bundled libraries).
    mutating func feed(_ bytes: UnsafeRawBufferPointer) {
        guard firstUseLine == nil, let base = bytes.baseAddress else { return }
        var index = 0
        while index < bytes.count {
            if matched == 0 {
                let next =
                    memchr(base + index, Int32(UInt8(ascii: "S")), bytes.count - index).map {
                        base.distance(to: UnsafeRawPointer($0))
                    } ?? bytes.count
                line += Self.lineBreaks(in: UnsafeRawBufferPointer(rebasing: bytes[index..<next]))
                index = next
                if index == bytes.count { return }
            }
            if step(bytes[index]) { return }
            index += 1
        }
    }

    /// The line feeds in `bytes`, counted eight bytes at a time.
    static func lineBreaks(in bytes: UnsafeRawBufferPointer) -> Int {
        let feeds: UInt64 = 0x0A0A_0A0A_0A0A_0A0A
        let low7: UInt64 = 0x7F7F_7F7F_7F7F_7F7F
        var count = 0
        var index = 0
        while index + 8 <= bytes.count {
            let word = bytes.loadUnaligned(fromByteOffset: index, as: UInt64.self) ^ feeds
            // The high bit of each byte that is zero in `word` (a line feed in the input), and of no other byte.
            count &+= (~(((word & low7) &+ low7) | word | low7)).nonzeroBitCount
            index += 8
        }
        while index < bytes.count {
            count &+= bytes[index] == 0x0A ? 1 : 0
            index += 1
        }
        return count
    }

    /// Scans one byte; `true` once the first use is found.
    private mutating func step(_ byte: UInt8) -> Bool {
        if byte == 0x0A { line += 1 }
        if matched == Self.name.count {
            if byte == UInt8(ascii: ".") || byte == UInt8(ascii: "B") {
                firstUseLine = line
                return true
            }
            matched = 0
        }
        if byte == Self.name[matched] {
            matched += 1
        } else {
            matched = byte == Self.name[0] ? 1 : 0
        }
        return false
    }

    /// Continues counting lines from `line` (for a new script element in the same file).
    mutating func restart(at line: Int) {
        self.line = line
        matched = 0
    }
}
