/// Compact JSON text into a byte buffer, without `JSONEncoder`'s per-value boxing.
///
/// Objects are written with sorted keys (so equal values give equal bytes, like ``JSONValue/encoded()``),
/// strings escape `"`, `\` and control characters only (non-ASCII stays UTF-8, `/` stays as is), numbers
/// that are not finite become `null`. The output never contains a raw newline, so one value is one
/// NDJSON line.
///
/// ```swift
/// var bytes: [UInt8] = []
/// JSONWriter.write(["a": 1], to: &bytes)   // {"a":1}
/// ```
package enum JSONWriter {
    /// Appends `value` as compact JSON to `bytes`.
    package static func write(_ value: JSONValue, to bytes: inout [UInt8]) {
        switch value {
        case .null: append("null", to: &bytes)
        case .bool(let flag): append(flag ? "true" : "false", to: &bytes)
        case .int(let number): write(number, to: &bytes)
        case .double(let number): write(number, to: &bytes)
        case .string(let text): write(text, to: &bytes)
        case .array(let elements):
            bytes.append(UInt8(ascii: "["))
            for (index, element) in elements.enumerated() {
                if index > 0 { bytes.append(UInt8(ascii: ",")) }
                write(element, to: &bytes)
            }
            bytes.append(UInt8(ascii: "]"))
        case .object(let members):
            bytes.append(UInt8(ascii: "{"))
            let keys = members.count > 1 ? members.keys.sorted() : Array(members.keys)
            for (index, key) in keys.enumerated() {
                if index > 0 { bytes.append(UInt8(ascii: ",")) }
                write(key, to: &bytes)
                bytes.append(UInt8(ascii: ":"))
                write(members[key] ?? .null, to: &bytes)
            }
            bytes.append(UInt8(ascii: "}"))
        }
    }

    /// `value` as compact JSON bytes.
    package static func bytes(_ value: JSONValue) -> [UInt8] {
        var bytes: [UInt8] = []
        write(value, to: &bytes)
        return bytes
    }

    /// Appends `text` as a JSON string literal.
    package static func write(_ text: String, to bytes: inout [UInt8]) {
        bytes.append(UInt8(ascii: "\""))
        var text = text
        text.withUTF8 { utf8 in
            var runStart = 0
            for index in 0..<utf8.count {
                let byte = utf8[index]
                guard byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") else { continue }
                bytes.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[runStart..<index]))
                appendEscape(for: byte, to: &bytes)
                runStart = index + 1
            }
            bytes.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[runStart..<utf8.count]))
        }
        bytes.append(UInt8(ascii: "\""))
    }

    /// Appends a decimal integer.
    package static func write(_ number: Int64, to bytes: inout [UInt8]) {
        if number < 0 { bytes.append(UInt8(ascii: "-")) }
        let start = bytes.count
        var magnitude = number.magnitude
        repeat {
            bytes.append(UInt8(ascii: "0") + UInt8(magnitude % 10))
            magnitude /= 10
        } while magnitude > 0
        bytes[start...].reverse()
    }

    private static func write(_ number: Double, to bytes: inout [UInt8]) {
        guard number.isFinite else { return append("null", to: &bytes) }
        append(number.description, to: &bytes)
    }

    private static func appendEscape(for byte: UInt8, to bytes: inout [UInt8]) {
        bytes.append(UInt8(ascii: "\\"))
        switch byte {
        case UInt8(ascii: "\""): bytes.append(UInt8(ascii: "\""))
        case UInt8(ascii: "\\"): bytes.append(UInt8(ascii: "\\"))
        case 0x0A: bytes.append(UInt8(ascii: "n"))
        case 0x0D: bytes.append(UInt8(ascii: "r"))
        case 0x09: bytes.append(UInt8(ascii: "t"))
        case 0x08: bytes.append(UInt8(ascii: "b"))
        case 0x0C: bytes.append(UInt8(ascii: "f"))
        default:
            bytes.append(contentsOf: [UInt8(ascii: "u"), 0x30, 0x30, hexDigit(byte >> 4), hexDigit(byte & 0xF)])
        }
    }

    private static func hexDigit(_ nibble: UInt8) -> UInt8 {
        nibble < 10 ? UInt8(ascii: "0") + nibble : UInt8(ascii: "a") + nibble - 10
    }

    private static func append(_ text: String, to bytes: inout [UInt8]) {
        bytes.append(contentsOf: text.utf8)
    }
}
