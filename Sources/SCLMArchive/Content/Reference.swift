import Foundation

/// A reference from one packaged file to a resource: an HTML attribute, a CSS `url()` or an `@import`.
struct Reference: Equatable {
    /// What the reference is for; decides whether a remote target matters.
    enum Kind: Equatable {
        /// Loaded automatically: `src`, `srcset`, `poster`, `data`, `background`, `<link rel=stylesheet|icon|…>`.
        case resource
        /// `<script src>`: also how a page ships storyclm.js.
        case script
        /// Followed when the user taps it: `<a href>`, `<area href>`, other `<link>`s.
        case navigation
        /// CSS `url()` or `@import`.
        case css
    }

    /// The attribute or construct, for messages (`src`, `href`, `url()`, `@import`).
    let attribute: String
    /// The value as written, with HTML character references decoded.
    let value: String
    let line: Int
    let kind: Kind
}

/// Where a reference points.
enum ReferenceTarget: Equatable {
    /// Nothing to check: a fragment, `data:`, `mailto:`, `tel:`, `javascript:`, `storyclm:`, another scheme,
    /// or a template placeholder.
    case ignored
    /// The network: `http(s)://…` or `//host/…`.
    case remote
    /// Outside the package: an absolute path, `file:` or a drive letter.
    case outside
    /// A path relative to the referring file, without query or fragment, percent-decoded.
    case relative(String)

    /// Classifies a reference value (byte-level: it runs for every reference of every page).
    static func classify(_ value: String) -> ReferenceTarget {
        let utf8 = Array(value.utf8)
        var start = 0
        var end = utf8.count
        while start < end, utf8[start].isHTMLSpace { start += 1 }
        while end > start, utf8[end - 1].isHTMLSpace { end -= 1 }
        let text = utf8[start..<end]
        guard let first = text.first, first != UInt8(ascii: "#"), first != UInt8(ascii: "?"), !hasPlaceholder(text)
        else {
            return .ignored
        }
        if text.starts(with: "//".utf8) { return .remote }
        if let scheme = scheme(of: text) {
            if scheme.count == 1 { return .outside }  // C:/… or c:\…
            switch scheme {
            case "http", "https": return .remote
            case "file": return .outside
            default: return .ignored
            }
        }
        let path = text.prefix { $0 != UInt8(ascii: "?") && $0 != UInt8(ascii: "#") }
        guard let head = path.first else { return .ignored }
        if head == UInt8(ascii: "/") || head == UInt8(ascii: "\\") { return .outside }
        return .relative(percentDecoded(path))
    }

    /// Whether `text` holds template syntax (`{{`, `${`, `<%`, `{%`): a value filled in at run time.
    private static func hasPlaceholder(_ text: ArraySlice<UInt8>) -> Bool {
        zip(text, text.dropFirst()).contains { pair in
            switch pair {
            case (UInt8(ascii: "{"), UInt8(ascii: "{")), (UInt8(ascii: "$"), UInt8(ascii: "{")),
                (UInt8(ascii: "<"), UInt8(ascii: "%")), (UInt8(ascii: "{"), UInt8(ascii: "%")):
                true
            default: false
            }
        }
    }

    /// The lowercased URL scheme of `text` (RFC 3986: a letter, then letters, digits, `+`, `-`, `.`, then `:`).
    private static func scheme(of text: ArraySlice<UInt8>) -> String? {
        guard let colon = text.firstIndex(of: UInt8(ascii: ":")), colon > text.startIndex,
            text[text.startIndex].isASCIILetter,
            text[..<colon].allSatisfy({ $0.isASCIILetter || $0.isASCIIDigit || "+-.".utf8.contains($0) })
        else { return nil }
        return String(decoding: text[..<colon].map(\.lowercasedASCII), as: UTF8.self)
    }

    /// `path` with `%XX` escapes decoded; a malformed escape is kept as written.
    private static func percentDecoded(_ path: ArraySlice<UInt8>) -> String {
        guard path.contains(UInt8(ascii: "%")) else { return String(decoding: path, as: UTF8.self) }
        var bytes: [UInt8] = []
        var index = path.startIndex
        while index < path.endIndex {
            if path[index] == UInt8(ascii: "%"), index + 2 < path.endIndex,
                let high = path[index + 1].hexValue, let low = path[index + 2].hexValue
            {
                bytes.append(high << 4 | low)
                index += 3
            } else {
                bytes.append(path[index])
                index += 1
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }
}

extension UInt8 {
    /// `0`–`9`.
    var isASCIIDigit: Bool { self >= UInt8(ascii: "0") && self <= UInt8(ascii: "9") }

    /// The value of a hexadecimal digit, or `nil`.
    var hexValue: UInt8? {
        switch self {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): self - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): self - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): self - UInt8(ascii: "A") + 10
        default: nil
        }
    }
}

enum PackagePath {
    /// `relative` resolved against the folder `base` ("" for the root), or `nil` when `..` climbs above the root.
    static func resolve(_ relative: String, from base: String) -> String? {
        if isPlain(relative) { return base.isEmpty ? relative : base + "/" + relative }
        var parts = base.isEmpty ? [] : base.split(separator: "/").map(String.init)
        for component in relative.split(separator: "/", omittingEmptySubsequences: true) {
            switch component {
            case ".": continue
            case "..":
                guard parts.popLast() != nil else { return nil }
            default: parts.append(String(component))
            }
        }
        return parts.joined(separator: "/")
    }

    /// Whether `path` has no empty, `.` or `..` component (then resolving is plain concatenation).
    private static func isPlain(_ path: String) -> Bool {
        var previous = UInt8(ascii: "/")
        for byte in path.utf8 {
            if previous == UInt8(ascii: "/"), byte == UInt8(ascii: "/") || byte == UInt8(ascii: ".") { return false }
            previous = byte
        }
        return previous != UInt8(ascii: "/")
    }

    /// The folder part of `path` ("" at the root).
    static func directory(of path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return "" }
        return String(path[..<slash])
    }

    /// The last component of `path`.
    static func fileName(of path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return path }
        return String(path[path.index(after: slash)...])
    }
}

enum HTMLEntities {
    private static let named: [String: String] = [
        "amp": "&", "lt": "<", "gt": ">", "quot": "\"", "apos": "'", "nbsp": "\u{A0}", "sol": "/", "num": "#",
        "quest": "?", "equals": "=", "colon": ":", "period": ".", "lpar": "(", "rpar": ")", "comma": ",",
        // Common in slide text (`SlideText`).
        "reg": "\u{AE}", "copy": "\u{A9}", "trade": "\u{2122}", "ndash": "\u{2013}", "mdash": "\u{2014}",
        "hellip": "\u{2026}", "lsquo": "\u{2018}", "rsquo": "\u{2019}", "ldquo": "\u{201C}", "rdquo": "\u{201D}",
        "laquo": "\u{AB}", "raquo": "\u{BB}", "deg": "\u{B0}", "plusmn": "\u{B1}", "micro": "\u{B5}",
        "middot": "\u{B7}", "times": "\u{D7}", "minus": "\u{2212}", "le": "\u{2264}", "ge": "\u{2265}",
        "euro": "\u{20AC}", "shy": "\u{AD}", "thinsp": "\u{2009}",
    ]

    /// `bytes` as text with character references (`&amp;`, `&#47;`, `&#x2F;`) decoded; unknown ones are kept.
    static func decode(_ bytes: [UInt8]) -> String {
        let text = String(decoding: bytes, as: UTF8.self)
        guard text.contains("&") else { return text }
        var result = ""
        var rest = Substring(text)
        while let ampersand = rest.firstIndex(of: "&") {
            result += rest[..<ampersand]
            let afterAmpersand = rest.index(after: ampersand)
            guard let semicolon = rest[afterAmpersand...].prefix(12).firstIndex(of: ";"),
                let replacement = character(for: rest[afterAmpersand..<semicolon])
            else {
                result.append("&")
                rest = rest[afterAmpersand...]
                continue
            }
            result += replacement
            rest = rest[rest.index(after: semicolon)...]
        }
        return result + rest
    }

    private static func character(for name: Substring) -> String? {
        if name.hasPrefix("#") {
            let digits = name.dropFirst()
            let number =
                digits.first == "x" || digits.first == "X" ? UInt32(digits.dropFirst(), radix: 16) : UInt32(digits)
            return number.flatMap(Unicode.Scalar.init).map { String(Character($0)) }
        }
        return named[String(name)]
    }
}
