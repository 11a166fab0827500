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

    /// Classifies a reference value.
    static func classify(_ value: String) -> ReferenceTarget {
        let text = value.trimmingCharacters(in: .whitespacesAndNewlines)
        if text.isEmpty || text.hasPrefix("#") || text.hasPrefix("?") { return .ignored }
        if ["{{", "${", "<%", "{%"].contains(where: { text.contains($0) }) { return .ignored }
        if text.hasPrefix("//") { return .remote }
        if let scheme = scheme(of: text) {
            if scheme.count == 1 { return .outside }  // C:/… or c:\…
            switch scheme {
            case "http", "https": return .remote
            case "file": return .outside
            default: return .ignored
            }
        }
        let path = String(text.prefix { $0 != "?" && $0 != "#" })
        if path.hasPrefix("/") || path.hasPrefix("\\") { return .outside }
        if path.isEmpty { return .ignored }
        return .relative(path.removingPercentEncoding ?? path)
    }

    /// The lowercased URL scheme of `text` (RFC 3986: a letter, then letters, digits, `+`, `-`, `.`, then `:`).
    private static func scheme(of text: String) -> String? {
        guard let colon = text.firstIndex(of: ":") else { return nil }
        let candidate = text[..<colon]
        guard let first = candidate.first, first.isASCII, first.isLetter,
            candidate.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || "+-.".contains($0)) })
        else { return nil }
        return candidate.lowercased()
    }
}

enum PackagePath {
    /// `relative` resolved against the folder `base` ("" for the root), or `nil` when `..` climbs above the root.
    static func resolve(_ relative: String, from base: String) -> String? {
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
