/// A start or end tag found by ``HTMLTokenizer``.
struct HTMLTag {
    /// One attribute; names are lowercased, values are the raw bytes between the quotes.
    struct Attribute {
        let name: String
        let value: [UInt8]
        /// The line the value starts on.
        let line: Int
    }

    /// The lowercased tag name.
    var name: String
    var isEndTag: Bool
    var attributes: [Attribute]
    /// The line of the `<`.
    var line: Int
    /// The line of the closing `>` (where the element's content starts).
    var endLine: Int

    /// The value of attribute `name` (the first one, as browsers do), as text.
    func value(of name: String) -> String? {
        attributes.first { $0.name == name }.map { String(decoding: $0.value, as: UTF8.self) }
    }
}

/// Receives what ``HTMLTokenizer`` finds.
protocol HTMLTokenSink {
    /// A complete start or end tag.
    mutating func handleTag(_ tag: HTMLTag)
    /// Bytes of the content of a raw-text element (`script`, `style`, `title`, `textarea`), in order.
    mutating func handleRawText(_ bytes: UnsafeRawBufferPointer, of element: String)
    /// Bytes of text between tags (character references not decoded), in order; a run may come in pieces.
    mutating func handleText(_ bytes: UnsafeRawBufferPointer)
}

extension HTMLTokenSink {
    /// Text between tags is ignored unless a sink reads it.
    mutating func handleText(_ bytes: UnsafeRawBufferPointer) {}
}

/// A tolerant, streaming HTML tokenizer after the WHATWG state machine, reduced to what package checks need.
///
/// It finds tags with their attributes in any quoting style (`a=1`, `a='1'`, `a="1"`, bare `a`), skips
/// comments, doctypes and bogus comments, treats `script`/`style`/`title`/`textarea` content as raw text up
/// to the matching end tag, and counts lines. Input arrives in chunks of any size (a tag may straddle two),
/// so memory does not grow with the file; over-long names and values are truncated, never rejected.
struct HTMLTokenizer {
    private enum State {
        case data, tagOpen, endTagOpen, tagName, beforeAttributeName, attributeName, afterAttributeName
        case beforeAttributeValue, attributeValueDoubleQuoted, attributeValueSingleQuoted, attributeValueUnquoted
        case afterAttributeValueQuoted, selfClosingStartTag, markupDeclarationOpen, commentStartDash, comment
        case bogusComment, rawText, rawTextLessThan, rawTextEndTagOpen, rawTextEndTagName
    }

    private static let rawTextElements: Set<String> = ["script", "style", "title", "textarea"]
    private static let maxNameLength = 64
    private static let maxValueLength = 64 << 10

    /// The current line (1-based).
    private(set) var line = 1
    private var state = State.data
    private var tag = HTMLTag(name: "", isEndTag: false, attributes: [], line: 1, endLine: 1)
    private var tagName: [UInt8] = []
    private var attributeName: [UInt8] = []
    private var attributeValue: [UInt8] = []
    private var attributeLine = 1
    private var dashes = 0
    private var rawTextElement = ""
    private var pendingRawText: [UInt8] = []
    private var endTagMatched = 0

    /// Tokenizes the next chunk, reporting to `sink`.
    mutating func feed(_ bytes: UnsafeRawBufferPointer, into sink: inout some HTMLTokenSink) {
        var rawStart: Int? = state == .rawText ? 0 : nil
        var index = 0
        while index < bytes.count {
            if state == .data {
                // Text is most of a page: hand it over up to the next tag.
                index = readText(bytes, from: index, into: &sink)
                if index == bytes.count { break }
            } else if state == .comment || state == .bogusComment {
                // Skip to the next byte that can change the state.
                index = skipText(bytes, from: index)
                if index == bytes.count { break }
            }
            let byte = bytes[index]
            if byte == 0x0A { line += 1 }
            if state == .rawText {
                if byte == UInt8(ascii: "<") {
                    flush(bytes, from: rawStart, to: index, into: &sink)
                    rawStart = nil
                    pendingRawText = [byte]
                    state = .rawTextLessThan
                }
                index += 1
                continue
            }
            let reprocess = step(byte, into: &sink)
            if state == .rawText, rawStart == nil { rawStart = reprocess ? index : index + 1 }
            if reprocess {
                if byte == 0x0A { line -= 1 }
                continue
            }
            index += 1
        }
        if state == .rawText { flush(bytes, from: rawStart, to: bytes.count, into: &sink) }
    }

    /// The index of the next `<` at or after `start`, the text before it handed to `sink`, counting the line
    /// breaks passed.
    private mutating func readText(
        _ bytes: UnsafeRawBufferPointer, from start: Int, into sink: inout some HTMLTokenSink
    )
        -> Int
    {
        var index = start
        while index < bytes.count, bytes[index] != UInt8(ascii: "<") {
            if bytes[index] == 0x0A { line += 1 }
            index += 1
        }
        if index > start { sink.handleText(UnsafeRawBufferPointer(rebasing: bytes[start..<index])) }
        return index
    }

    /// The index of the next byte at or after `start` that matters in the current comment state,
    /// counting the line breaks passed.
    private mutating func skipText(_ bytes: UnsafeRawBufferPointer, from start: Int) -> Int {
        var index = start
        while index < bytes.count {
            let byte = bytes[index]
            if byte == UInt8(ascii: "<") || byte == UInt8(ascii: ">") || byte == UInt8(ascii: "-") { return index }
            if byte == 0x0A { line += 1 }
            if state == .comment { dashes = 0 }
            index += 1
        }
        return index
    }

    private func flush(
        _ bytes: UnsafeRawBufferPointer, from start: Int?, to end: Int, into sink: inout some HTMLTokenSink
    ) {
        guard let start, start < end else { return }
        sink.handleRawText(UnsafeRawBufferPointer(rebasing: bytes[start..<end]), of: rawTextElement)
    }

    /// Advances the state machine by one byte; returns `true` when the byte must be processed again in the new state.
    private mutating func step(_ byte: UInt8, into sink: inout some HTMLTokenSink) -> Bool {
        switch state {
        case .data:
            if byte == UInt8(ascii: "<") { state = .tagOpen }
        case .tagOpen:
            return tagOpen(byte)
        case .endTagOpen:
            if byte.isASCIILetter {
                beginTag(isEnd: true)
                return true
            }
            state = byte == UInt8(ascii: ">") ? .data : .bogusComment
        case .tagName:
            if byte.isHTMLSpace {
                state = .beforeAttributeName
            } else if byte == UInt8(ascii: "/") {
                state = .selfClosingStartTag
            } else if byte == UInt8(ascii: ">") {
                emitTag(into: &sink)
            } else if tagName.count < Self.maxNameLength {
                tagName.append(byte.lowercasedASCII)
            }
        case .beforeAttributeName, .afterAttributeName:
            return attributeBoundary(byte, into: &sink)
        case .attributeName:
            return attributeNameByte(byte, into: &sink)
        case .beforeAttributeValue:
            return beforeValue(byte, into: &sink)
        case .attributeValueDoubleQuoted, .attributeValueSingleQuoted:
            let quote = state == .attributeValueDoubleQuoted ? UInt8(ascii: "\"") : UInt8(ascii: "'")
            if byte == quote {
                finishAttribute()
                state = .afterAttributeValueQuoted
            } else {
                appendValue(byte)
            }
        case .attributeValueUnquoted:
            if byte.isHTMLSpace {
                finishAttribute()
                state = .beforeAttributeName
            } else if byte == UInt8(ascii: ">") {
                finishAttribute()
                emitTag(into: &sink)
            } else {
                appendValue(byte)
            }
        case .afterAttributeValueQuoted, .selfClosingStartTag:
            if byte == UInt8(ascii: ">") {
                emitTag(into: &sink)
                return false
            }
            if state == .afterAttributeValueQuoted, byte == UInt8(ascii: "/") {
                state = .selfClosingStartTag
                return false
            }
            state = .beforeAttributeName
            return !byte.isHTMLSpace
        case .markupDeclarationOpen:
            state = byte == UInt8(ascii: "-") ? .commentStartDash : .bogusComment
            return byte == UInt8(ascii: ">")
        case .commentStartDash:
            state = byte == UInt8(ascii: "-") ? .comment : .bogusComment
            dashes = 0
            return byte == UInt8(ascii: ">")
        case .comment:
            if byte == UInt8(ascii: ">"), dashes >= 2 {
                state = .data
            } else {
                dashes = byte == UInt8(ascii: "-") ? dashes + 1 : 0
            }
        case .bogusComment:
            if byte == UInt8(ascii: ">") { state = .data }
        case .rawText:
            break  // handled in feed(_:into:) without a per-byte call
        case .rawTextLessThan, .rawTextEndTagOpen, .rawTextEndTagName:
            return rawTextEndTag(byte, into: &sink)
        }
        return false
    }

    private mutating func tagOpen(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "!"): state = .markupDeclarationOpen
        case UInt8(ascii: "/"): state = .endTagOpen
        case UInt8(ascii: "?"): state = .bogusComment
        default:
            if byte.isASCIILetter {
                beginTag(isEnd: false)
                return true
            }
            state = .data
            return true
        }
        return false
    }

    private mutating func beginTag(isEnd: Bool) {
        tag = HTMLTag(name: "", isEndTag: isEnd, attributes: [], line: line, endLine: line)
        tagName.removeAll(keepingCapacity: true)
        state = .tagName
    }

    private mutating func attributeBoundary(_ byte: UInt8, into sink: inout some HTMLTokenSink) -> Bool {
        if byte.isHTMLSpace { return false }
        switch byte {
        case UInt8(ascii: "/"): state = .selfClosingStartTag
        case UInt8(ascii: ">"): emitTag(into: &sink)
        case UInt8(ascii: "=") where state == .afterAttributeName: state = .beforeAttributeValue
        default:
            finishAttribute()
            attributeName = [byte.lowercasedASCII]
            attributeValue.removeAll(keepingCapacity: true)
            attributeLine = line
            state = .attributeName
        }
        return false
    }

    private mutating func attributeNameByte(_ byte: UInt8, into sink: inout some HTMLTokenSink) -> Bool {
        switch byte {
        case UInt8(ascii: "="):
            state = .beforeAttributeValue
        case UInt8(ascii: "/"), UInt8(ascii: ">"):
            finishAttribute()
            state = .beforeAttributeName
            return true
        default:
            if byte.isHTMLSpace {
                state = .afterAttributeName
            } else if attributeName.count < Self.maxNameLength {
                attributeName.append(byte.lowercasedASCII)
            }
        }
        return false
    }

    private mutating func beforeValue(_ byte: UInt8, into sink: inout some HTMLTokenSink) -> Bool {
        if byte.isHTMLSpace { return false }
        attributeLine = line
        switch byte {
        case UInt8(ascii: "\""): state = .attributeValueDoubleQuoted
        case UInt8(ascii: "'"): state = .attributeValueSingleQuoted
        case UInt8(ascii: ">"):
            finishAttribute()
            emitTag(into: &sink)
        default:
            state = .attributeValueUnquoted
            return true
        }
        return false
    }

    private mutating func appendValue(_ byte: UInt8) {
        if attributeValue.count < Self.maxValueLength { attributeValue.append(byte) }
    }

    private mutating func finishAttribute() {
        guard !attributeName.isEmpty else { return }
        let name = String(decoding: attributeName, as: UTF8.self)
        tag.attributes.append(HTMLTag.Attribute(name: name, value: attributeValue, line: attributeLine))
        attributeName.removeAll(keepingCapacity: true)
        attributeValue.removeAll(keepingCapacity: true)
    }

    private mutating func emitTag(into sink: inout some HTMLTokenSink) {
        finishAttribute()
        tag.name = String(decoding: tagName, as: UTF8.self)
        tag.endLine = line
        state = .data
        if !tag.isEndTag, Self.rawTextElements.contains(tag.name) {
            rawTextElement = tag.name
            state = .rawText
        }
        sink.handleTag(tag)
    }

    /// Matches `</name` at the end of raw text; anything else goes back to the raw text, unchanged.
    private mutating func rawTextEndTag(_ byte: UInt8, into sink: inout some HTMLTokenSink) -> Bool {
        switch state {
        case .rawTextLessThan:
            guard byte == UInt8(ascii: "/") else { return abandonEndTag(into: &sink) }
            pendingRawText.append(byte)
            endTagMatched = 0
            state = .rawTextEndTagOpen
        default:
            let name = rawTextElement.utf8
            if endTagMatched == name.count, byte.isHTMLSpace || byte == UInt8(ascii: "/") || byte == UInt8(ascii: ">") {
                tag = HTMLTag(name: rawTextElement, isEndTag: true, attributes: [], line: line, endLine: line)
                tagName = Array(name)
                pendingRawText.removeAll(keepingCapacity: true)
                state = .beforeAttributeName
                return true
            }
            guard endTagMatched < name.count,
                byte.lowercasedASCII == name[name.index(name.startIndex, offsetBy: endTagMatched)]
            else { return abandonEndTag(into: &sink) }
            pendingRawText.append(byte)
            endTagMatched += 1
            state = .rawTextEndTagName
        }
        return false
    }

    private mutating func abandonEndTag(into sink: inout some HTMLTokenSink) -> Bool {
        pendingRawText.withUnsafeBytes { sink.handleRawText($0, of: rawTextElement) }
        pendingRawText.removeAll(keepingCapacity: true)
        state = .rawText
        return true
    }
}

extension UInt8 {
    /// Space, tab, line feed, form feed or carriage return (HTML's "ASCII whitespace").
    var isHTMLSpace: Bool { self == 0x20 || self == 0x09 || self == 0x0A || self == 0x0C || self == 0x0D }
    /// `A`–`Z` or `a`–`z`.
    var isASCIILetter: Bool { (self | 0x20) >= UInt8(ascii: "a") && (self | 0x20) <= UInt8(ascii: "z") }
    /// The byte with `A`–`Z` mapped to `a`–`z`.
    var lowercasedASCII: UInt8 { self >= UInt8(ascii: "A") && self <= UInt8(ascii: "Z") ? self | 0x20 : self }
}
