/// Percent-encoding over UTF-8 bytes (RFC 3986): query values, path segments, form fields and topic names.
package enum PercentEncoding {
    /// Whether `byte` is an RFC 3986 unreserved character (`A-Z a-z 0-9 - . _ ~`), never encoded.
    package static func isUnreserved(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
            UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"),
            UInt8(ascii: "~"):
            true
        default:
            false
        }
    }

    /// `text` with every UTF-8 byte but the unreserved ones as `%XX` (upper-case hex); a space becomes `+`
    /// when `spaceAsPlus` (`application/x-www-form-urlencoded`).
    package static func escape(_ text: String, spaceAsPlus: Bool = false) -> String {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(text.utf8.count)
        for byte in text.utf8 {
            if isUnreserved(byte) {
                bytes.append(byte)
            } else if spaceAsPlus && byte == UInt8(ascii: " ") {
                bytes.append(UInt8(ascii: "+"))
            } else {
                bytes += [UInt8(ascii: "%"), hexDigits[Int(byte >> 4)], hexDigits[Int(byte & 0xF)]]
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    private static let hexDigits = Array("0123456789ABCDEF".utf8)
}
