/// A streaming UTF-8 well-formedness check (RFC 3629: no overlong forms, surrogates or values past U+10FFFF).
///
/// Feed bytes in any chunking with ``consume(_:)``; ``isValid`` is final once all bytes are in.
struct UTF8Validator {
    private var pending = 0
    private var lower: UInt8 = 0x80
    private var upper: UInt8 = 0xBF
    private var failed = false

    /// Whether every byte so far was valid and no sequence is left incomplete.
    var isValid: Bool { !failed && pending == 0 }

    /// Checks the next bytes, skipping runs of ASCII eight bytes at a time.
    mutating func consume(_ bytes: UnsafeRawBufferPointer) {
        var index = 0
        while index < bytes.count {
            if pending == 0 {
                while index + 8 <= bytes.count,
                    bytes.loadUnaligned(fromByteOffset: index, as: UInt64.self) & 0x8080_8080_8080_8080 == 0
                {
                    index += 8
                }
            }
            let end = min(bytes.count, index + 8)
            consumeEachByte(bytes[index..<end])
            guard !failed else { return }
            index = end
        }
    }

    /// Checks the next bytes.
    mutating func consume(_ bytes: [UInt8]) {
        bytes.withUnsafeBytes { consume($0) }
    }

    private mutating func consumeEachByte(_ bytes: some Sequence<UInt8>) {
        guard !failed else { return }
        for byte in bytes {
            if pending > 0 {
                guard byte >= lower && byte <= upper else {
                    failed = true
                    return
                }
                pending -= 1
                lower = 0x80
                upper = 0xBF
                continue
            }
            switch byte {
            case 0x00...0x7F: continue
            case 0xC2...0xDF: pending = 1
            case 0xE0: (pending, lower) = (2, 0xA0)
            case 0xE1...0xEC, 0xEE...0xEF: pending = 2
            case 0xED: (pending, upper) = (2, 0x9F)
            case 0xF0: (pending, lower) = (3, 0x90)
            case 0xF1...0xF3: pending = 3
            case 0xF4: (pending, upper) = (3, 0x8F)
            default:
                failed = true
                return
            }
        }
    }
}
