/// Reads fuzz input bytes as a few choices (a chunk size, a limit, a kind) followed by a payload, so that
/// one input drives both the parser's options and its text.
struct FuzzInput {
    private let bytes: [UInt8]
    private var position = 0

    init(_ bytes: [UInt8]) { self.bytes = bytes }

    /// The next byte, or 0 when the input is used up.
    mutating func byte() -> UInt8 {
        guard position < bytes.count else { return 0 }
        defer { position += 1 }
        return bytes[position]
    }

    /// A number in `1...256`, from the next byte.
    mutating func size() -> Int { Int(byte()) + 1 }

    /// Every byte not read yet.
    var rest: [UInt8] { Array(bytes[min(position, bytes.count)...]) }

    /// `rest` split at each `separator` byte.
    func pieces(separatedBy separator: UInt8) -> [[UInt8]] {
        rest.split(separator: separator, omittingEmptySubsequences: false).map(Array.init)
    }
}
