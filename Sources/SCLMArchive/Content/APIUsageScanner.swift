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
        for byte in bytes {
            if byte == 0x0A { line += 1 }
            if matched == Self.name.count {
                if byte == UInt8(ascii: ".") || byte == UInt8(ascii: "B") {
                    firstUseLine = line
                    return
                }
                matched = 0
            }
            if byte == Self.name[matched] {
                matched += 1
            } else {
                matched = byte == Self.name[0] ? 1 : 0
            }
        }
    }

    /// Continues counting lines from `line` (for a new script element in the same file).
    mutating func restart(at line: Int) {
        self.line = line
        matched = 0
    }
}
