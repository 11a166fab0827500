/// A streaming CSS scanner that finds `url(…)` values and `@import` targets with their line numbers.
///
/// It follows CSS Syntax Level 3 closely enough for references: comments are skipped, strings may use
/// either quote and backslash escapes, `url(` takes a quoted or an unquoted value (case-insensitively),
/// `@import "x.css"` and `@import url(x.css)` are both imports, and a bad URL is skipped to its `)`. It is
/// fed chunks of any size: `.css` files, `<style>` element content and `style=""` attribute values.
struct CSSTokenizer {
    /// A reference found in CSS.
    struct Found: Equatable {
        let value: String
        let line: Int
        let isImport: Bool
    }

    private enum State {
        case normal, slash, comment, commentStar, string, stringEscape, escape
        case urlStart, urlString, urlStringEscape, urlAfterString, urlUnquoted, urlUnquotedEscape, urlAfterUnquoted,
            badURL
    }

    private static let maxValueLength = 8 << 10
    private static let urlWord = packed("url")
    private static let importWord = packed("import")

    /// Up to 8 ASCII bytes of `text` packed as ``word`` holds them.
    private static func packed(_ text: String) -> UInt64 {
        text.utf8.prefix(8).enumerated().reduce(0) { $0 | UInt64($1.element) << (8 * $1.offset) }
    }

    /// References found so far; the owner takes them with ``takeFound()``.
    private(set) var found: [Found] = []
    private(set) var line: Int
    private var state = State.normal
    private var quote: UInt8 = 0
    /// The current identifier's first 8 bytes, lowercased, packed little-endian (only `url` and `import`
    /// matter), and its length (counted up to 9); kept in registers, not an array, as it changes every byte.
    private var word: UInt64 = 0
    private var wordLength = 0
    private var isAtKeyword = false
    private var importPending = false
    private var value: [UInt8] = []
    private var valueLine = 1

    /// Creates a scanner whose first byte is on `line`.
    init(line: Int = 1) { self.line = line }

    /// Scans the next chunk.
    mutating func feed(_ bytes: some Sequence<UInt8>) {
        for byte in bytes {
            if byte == 0x0A { line += 1 }
            // The most common byte, a name's in the normal state, without a call per byte.
            if state == .normal, byte.isCSSNameByte {
                appendToWord(byte)
                continue
            }
            while step(byte) {}
        }
    }

    /// Returns and forgets the references found so far.
    mutating func takeFound() -> [Found] {
        defer { found.removeAll(keepingCapacity: true) }
        return found
    }

    /// One byte; returns `true` to process the same byte again in the new state.
    private mutating func step(_ byte: UInt8) -> Bool {
        switch state {
        case .normal: return normal(byte)
        case .slash:
            state = byte == UInt8(ascii: "*") ? .comment : .normal
            return state == .normal
        case .comment:
            if byte == UInt8(ascii: "*") { state = .commentStar }
        case .commentStar:
            state = byte == UInt8(ascii: "/") ? .normal : byte == UInt8(ascii: "*") ? .commentStar : .comment
        case .string:
            if byte == quote {
                if importPending { emit(isImport: true) }
                state = .normal
            } else if byte == UInt8(ascii: "\\") {
                state = .stringEscape
            } else if byte == 0x0A {
                state = .normal  // an unterminated string ends at the line break
            } else {
                append(byte)
            }
        case .stringEscape, .urlStringEscape, .urlUnquotedEscape:
            if byte != 0x0A { append(byte) }
            state = state == .stringEscape ? .string : state == .urlStringEscape ? .urlString : .urlUnquoted
        case .escape:
            state = .normal
        case .urlStart:
            return urlStart(byte)
        case .urlString:
            if byte == quote {
                state = .urlAfterString
            } else if byte == UInt8(ascii: "\\") {
                state = .urlStringEscape
            } else {
                append(byte)
            }
        case .urlAfterString, .urlAfterUnquoted:
            if byte == UInt8(ascii: ")") {
                emit(isImport: importPending)
                state = .normal
            } else if !byte.isHTMLSpace {
                state = .badURL
            }
        case .urlUnquoted:
            return urlUnquoted(byte)
        case .badURL:
            if byte == UInt8(ascii: ")") { state = .normal }
        }
        return false
    }

    private mutating func normal(_ byte: UInt8) -> Bool {
        if byte.isCSSNameByte {
            appendToWord(byte)
            return false
        }
        let isURL = !isAtKeyword && wordLength == 3 && word == Self.urlWord
        if isAtKeyword, wordLength == 6, word == Self.importWord { importPending = true }
        word = 0
        wordLength = 0
        isAtKeyword = false
        switch byte {
        case UInt8(ascii: "/"): state = .slash
        case UInt8(ascii: "\""), UInt8(ascii: "'"):
            beginValue(quote: byte)
            state = .string
        case UInt8(ascii: "\\"): state = .escape
        case UInt8(ascii: "("):
            if isURL {
                state = .urlStart
                valueLine = line
            }
        case UInt8(ascii: "@"): isAtKeyword = true
        case UInt8(ascii: ";"), UInt8(ascii: "{"), UInt8(ascii: "}"): importPending = false
        default: break
        }
        return false
    }

    @inline(__always)
    private mutating func appendToWord(_ byte: UInt8) {
        if wordLength < 8 { word |= UInt64(byte.lowercasedASCII) << (8 * wordLength) }
        if wordLength < 9 { wordLength += 1 }
    }

    private mutating func urlStart(_ byte: UInt8) -> Bool {
        if byte.isHTMLSpace { return false }
        if byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "'") {
            beginValue(quote: byte)
            state = .urlString
            return false
        }
        beginValue(quote: 0)
        state = .urlUnquoted
        return true
    }

    private mutating func urlUnquoted(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: ")"):
            emit(isImport: importPending)
            state = .normal
        case UInt8(ascii: "\\"): state = .urlUnquotedEscape
        case UInt8(ascii: "\""), UInt8(ascii: "'"), UInt8(ascii: "("): state = .badURL
        default:
            if byte.isHTMLSpace {
                state = .urlAfterUnquoted
            } else {
                append(byte)
            }
        }
        return false
    }

    private mutating func beginValue(quote: UInt8) {
        self.quote = quote
        value.removeAll(keepingCapacity: true)
        valueLine = line
    }

    private mutating func append(_ byte: UInt8) {
        if value.count < Self.maxValueLength { value.append(byte) }
    }

    private mutating func emit(isImport: Bool) {
        found.append(Found(value: String(decoding: value, as: UTF8.self), line: valueLine, isImport: isImport))
        importPending = false
        value.removeAll(keepingCapacity: true)
    }
}

extension UInt8 {
    /// A byte that can be part of a CSS identifier (ASCII letters, digits, `-`, `_`, or any non-ASCII byte).
    var isCSSNameByte: Bool {
        isASCIILetter || (self >= UInt8(ascii: "0") && self <= UInt8(ascii: "9")) || self == UInt8(ascii: "-")
            || self == UInt8(ascii: "_") || self >= 0x80
    }
}
