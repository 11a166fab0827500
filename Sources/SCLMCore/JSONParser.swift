/// A strict, allocation-light JSON parser over UTF-8 bytes, producing ``JSONValue``.
///
/// Written for the bridge's hot path (one message per line, hundreds of thousands a second), where
/// `JSONDecoder` into `JSONValue` costs several times more (see `bench/RESULTS.md`). It accepts exactly
/// RFC 8259 text: no comments, no trailing commas, no leading zeros, no NaN. The input must already be
/// valid UTF-8 (the bridge validates each line before parsing); string contents are not re-validated.
/// Unpaired UTF-16 surrogates in `\u` escapes become U+FFFD, as JavaScript engines emit them.
///
/// ```swift
/// let value = try JSONParser.parse(Array(#"{"a":[1,2.5,"x"]}"#.utf8))
/// ```
package struct JSONParser {
    /// Why a text is not JSON, and the byte offset where that was noticed.
    package struct Failure: Error, Sendable, Equatable, CustomStringConvertible {
        /// What is wrong, e.g. "expected ':' after an object key".
        package let reason: String
        /// The 0-based byte offset into the parsed text.
        package let offset: Int

        package var description: String { "\(reason) at byte \(offset)" }
    }

    /// The deepest nesting of arrays and objects accepted (keeps recursion bounded).
    package static let maximumDepth = 512

    private let bytes: UnsafeBufferPointer<UInt8>
    private var position = 0
    private var depth = 0

    private init(bytes: UnsafeBufferPointer<UInt8>) {
        self.bytes = bytes
    }

    /// Parses one JSON value that fills `text` (surrounding whitespace allowed).
    ///
    /// - Throws: ``Failure`` with the reason and offset.
    package static func parse(_ text: some Collection<UInt8>) throws(Failure) -> JSONValue {
        let result: Result<JSONValue, Failure>? = text.withContiguousStorageIfAvailable { buffer in
            var parser = JSONParser(bytes: buffer)
            return Result { () throws(Failure) in try parser.parseDocument() }
        }
        if let result { return try result.get() }
        return try parse(Array(text))
    }

    /// Parses one JSON value and, when it is an object, returns its members in text order with duplicates
    /// kept, so callers can match keys case-insensitively and notice ambiguous envelopes.
    ///
    /// - Throws: ``Failure``.
    package static func parseKeepingMembers(_ text: UnsafeBufferPointer<UInt8>) throws(Failure) -> Document {
        var parser = JSONParser(bytes: text)
        parser.skipWhitespace()
        guard parser.peek() == UInt8(ascii: "{") else { return .value(try parser.parseDocument()) }
        parser.position += 1
        let members = try parser.parseMembers()
        parser.skipWhitespace()
        guard parser.position == parser.bytes.count else { throw parser.failure("unexpected text after the value") }
        return .object(members)
    }

    /// A parsed document whose top-level object members are kept in order.
    package enum Document: Sendable, Equatable {
        /// A top-level object, members in text order.
        case object([(key: String, value: JSONValue)])
        /// Any other top-level value.
        case value(JSONValue)

        package static func == (lhs: Document, rhs: Document) -> Bool {
            switch (lhs, rhs) {
            case (.value(let a), .value(let b)): a == b
            case (.object(let a), .object(let b)): a.elementsEqual(b) { $0.key == $1.key && $0.value == $1.value }
            default: false
            }
        }
    }

    // MARK: - Grammar

    private mutating func parseDocument() throws(Failure) -> JSONValue {
        skipWhitespace()
        let value = try parseValue()
        skipWhitespace()
        guard position == bytes.count else { throw failure("unexpected text after the value") }
        return value
    }

    private mutating func parseValue() throws(Failure) -> JSONValue {
        guard let byte = peek() else { throw failure("unexpected end of text, expected a value") }
        switch byte {
        case UInt8(ascii: "{"):
            position += 1
            let members = try parseMembers()
            var object = [String: JSONValue](minimumCapacity: members.count)
            for member in members { object[member.key] = member.value }
            return .object(object)
        case UInt8(ascii: "["):
            position += 1
            return .array(try parseElements())
        case UInt8(ascii: "\""):
            position += 1
            return .string(try parseString())
        case UInt8(ascii: "t"): return try parseLiteral("true", .bool(true))
        case UInt8(ascii: "f"): return try parseLiteral("false", .bool(false))
        case UInt8(ascii: "n"): return try parseLiteral("null", .null)
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return try parseNumber()
        default: throw failure("unexpected character '\(Self.printable(byte))', expected a value")
        }
    }

    private mutating func parseMembers() throws(Failure) -> [(key: String, value: JSONValue)] {
        try enterNesting()
        defer { depth -= 1 }
        var members: [(key: String, value: JSONValue)] = []
        skipWhitespace()
        if peek() == UInt8(ascii: "}") {
            position += 1
            return members
        }
        while true {
            skipWhitespace()
            guard peek() == UInt8(ascii: "\"") else { throw failure("expected a string key in an object") }
            position += 1
            let key = try parseString()
            skipWhitespace()
            guard peek() == UInt8(ascii: ":") else { throw failure("expected ':' after an object key") }
            position += 1
            skipWhitespace()
            members.append((key, try parseValue()))
            skipWhitespace()
            switch peek() {
            case UInt8(ascii: ","): position += 1
            case UInt8(ascii: "}"):
                position += 1
                return members
            default: throw failure("expected ',' or '}' in an object")
            }
        }
    }

    private mutating func parseElements() throws(Failure) -> [JSONValue] {
        try enterNesting()
        defer { depth -= 1 }
        var elements: [JSONValue] = []
        skipWhitespace()
        if peek() == UInt8(ascii: "]") {
            position += 1
            return elements
        }
        while true {
            skipWhitespace()
            elements.append(try parseValue())
            skipWhitespace()
            switch peek() {
            case UInt8(ascii: ","): position += 1
            case UInt8(ascii: "]"):
                position += 1
                return elements
            default: throw failure("expected ',' or ']' in an array")
            }
        }
    }

    private mutating func enterNesting() throws(Failure) {
        depth += 1
        if depth > Self.maximumDepth { throw failure("nesting deeper than \(Self.maximumDepth) levels") }
    }

    private mutating func parseLiteral(_ word: StaticString, _ value: JSONValue) throws(Failure) -> JSONValue {
        let expected = UnsafeBufferPointer(start: word.utf8Start, count: word.utf8CodeUnitCount)
        guard position + expected.count <= bytes.count,
            expected.elementsEqual(UnsafeBufferPointer(rebasing: bytes[position..<position + expected.count]))
        else { throw failure("invalid literal, expected \(word)") }
        position += expected.count
        return value
    }

    // MARK: - Strings

    /// Parses string contents after the opening quote, through the closing quote.
    private mutating func parseString() throws(Failure) -> String {
        let start = position
        // Fast path: no escapes, which is nearly every key and GUID.
        while position < bytes.count {
            let byte = bytes[position]
            if byte == UInt8(ascii: "\"") {
                let text = String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<position]), as: UTF8.self)
                position += 1
                return text
            }
            if byte == UInt8(ascii: "\\") { break }
            if byte < 0x20 { throw failure("control character in a string; escape it") }
            position += 1
        }
        guard position < bytes.count else { throw failure("unterminated string") }
        var scratch = Array(UnsafeBufferPointer(rebasing: bytes[start..<position]))
        return try parseEscapedString(into: &scratch)
    }

    private mutating func parseEscapedString(into scratch: inout [UInt8]) throws(Failure) -> String {
        while position < bytes.count {
            let byte = bytes[position]
            position += 1
            switch byte {
            case UInt8(ascii: "\""): return String(decoding: scratch, as: UTF8.self)
            case UInt8(ascii: "\\"): try parseEscape(into: &scratch)
            case 0..<0x20: throw failure("control character in a string; escape it")
            default: scratch.append(byte)
            }
        }
        throw failure("unterminated string")
    }

    private mutating func parseEscape(into scratch: inout [UInt8]) throws(Failure) {
        guard let byte = peek() else { throw failure("unterminated escape") }
        position += 1
        switch byte {
        case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): scratch.append(byte)
        case UInt8(ascii: "b"): scratch.append(0x08)
        case UInt8(ascii: "f"): scratch.append(0x0C)
        case UInt8(ascii: "n"): scratch.append(0x0A)
        case UInt8(ascii: "r"): scratch.append(0x0D)
        case UInt8(ascii: "t"): scratch.append(0x09)
        case UInt8(ascii: "u"): Self.appendUTF8(of: try parseUnicodeEscape(), to: &scratch)
        default: throw failure("invalid escape '\\\(Self.printable(byte))'")
        }
    }

    /// Reads the 4 hex digits after `\u` (and a following low surrogate escape when this is a high one).
    private mutating func parseUnicodeEscape() throws(Failure) -> Unicode.Scalar {
        let first = try parseHex4()
        switch first {
        case 0xD800...0xDBFF:
            let mark = position
            if position + 6 <= bytes.count, bytes[position] == UInt8(ascii: "\\"),
                bytes[position + 1] == UInt8(ascii: "u")
            {
                position += 2
                let second = try parseHex4()
                if (0xDC00...0xDFFF).contains(second) {
                    let value = 0x10000 + ((first - 0xD800) << 10) + (second - 0xDC00)
                    return Unicode.Scalar(value) ?? "\u{FFFD}"
                }
                position = mark
            }
            return "\u{FFFD}"
        case 0xDC00...0xDFFF: return "\u{FFFD}"
        default: return Unicode.Scalar(first) ?? "\u{FFFD}"
        }
    }

    private mutating func parseHex4() throws(Failure) -> UInt32 {
        guard position + 4 <= bytes.count else { throw failure("truncated \\u escape") }
        var value: UInt32 = 0
        for _ in 0..<4 {
            let byte = bytes[position]
            let digit: UInt8
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = byte - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = byte - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = byte - UInt8(ascii: "A") + 10
            default: throw failure("invalid hex digit in a \\u escape")
            }
            value = value << 4 | UInt32(digit)
            position += 1
        }
        return value
    }

    private static func appendUTF8(of scalar: Unicode.Scalar, to scratch: inout [UInt8]) {
        UTF8.encode(scalar) { scratch.append($0) }
    }

    // MARK: - Numbers

    private mutating func parseNumber() throws(Failure) -> JSONValue {
        let start = position
        var isInteger = true
        if peek() == UInt8(ascii: "-") { position += 1 }
        guard let first = peek(), Self.isDigit(first) else { throw failure("expected a digit in a number") }
        if first == UInt8(ascii: "0") {
            position += 1
            if let next = peek(), Self.isDigit(next) { throw failure("leading zero in a number") }
        } else {
            skipDigits()
        }
        if peek() == UInt8(ascii: ".") {
            isInteger = false
            position += 1
            guard let next = peek(), Self.isDigit(next) else { throw failure("expected a digit after '.'") }
            skipDigits()
        }
        if let next = peek(), next == UInt8(ascii: "e") || next == UInt8(ascii: "E") {
            isInteger = false
            position += 1
            if let sign = peek(), sign == UInt8(ascii: "+") || sign == UInt8(ascii: "-") { position += 1 }
            guard let digit = peek(), Self.isDigit(digit) else { throw failure("expected a digit in an exponent") }
            skipDigits()
        }
        let text = UnsafeBufferPointer(rebasing: bytes[start..<position])
        if isInteger, let integer = Self.integer(text) { return .int(integer) }
        guard let double = Double(String(decoding: text, as: UTF8.self)), double.isFinite else {
            throw failure("number out of range")
        }
        return .double(double)
    }

    /// The value of an optionally negative run of digits, or `nil` when it does not fit `Int64`.
    private static func integer(_ text: UnsafeBufferPointer<UInt8>) -> Int64? {
        let negative = text.first == UInt8(ascii: "-")
        var checked = Checked<UInt64>(0)
        for byte in text.dropFirst(negative ? 1 : 0) {
            guard let next = checked.times(10)?.plus(byte - UInt8(ascii: "0")) else { return nil }
            checked = next
        }
        let magnitude = checked.value
        if negative {
            if magnitude == Int64.min.magnitude { return Int64.min }
            return Int64(exactly: magnitude).map { -$0 }
        }
        return Int64(exactly: magnitude)
    }

    private mutating func skipDigits() {
        while let byte = peek(), Self.isDigit(byte) { position += 1 }
    }

    private static func isDigit(_ byte: UInt8) -> Bool { byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") }

    // MARK: - Helpers

    private func peek() -> UInt8? { position < bytes.count ? bytes[position] : nil }

    private mutating func skipWhitespace() {
        while position < bytes.count {
            switch bytes[position] {
            case 0x20, 0x09, 0x0A, 0x0D: position += 1
            default: return
            }
        }
    }

    private func failure(_ reason: String) -> Failure { Failure(reason: reason, offset: position) }

    private static func printable(_ byte: UInt8) -> String {
        byte >= 0x20 && byte < 0x7F ? String(UnicodeScalar(byte)) : "\\x" + String(byte, radix: 16)
    }
}
