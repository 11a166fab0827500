/// Text on its way to a terminal or a text report, in which every interpolated value has been made safe to show.
///
/// Names, messages and paths that sclm prints come from servers, packages and users; a presentation called
/// `ESC ] 0;… BEL` would retitle the window, `ESC [2J` clear the screen and a CR or LF forge lines. Instead of
/// asking every renderer to remember to clean each value, the text output layer speaks this type:
/// `CommandContext.print` (in SCLMCommands), the command outputs' `text`, the tables, the progress board and the
/// summary lines all take `TerminalText`, whose string interpolation escapes each interpolated value with
/// ``escaping(_:)`` while the literal parts (sclm's own words, layout and colour codes) pass unchanged. A plain
/// `String` does not convert silently, so a renderer cannot forget: it interpolates the value (escaped) or says
/// ``init(trusted:)`` for text sclm made itself. The logger and the error printer escape their whole message the
/// same way, since a message is one line. JSON output never goes through this type and keeps the exact text: the
/// same characters are written there as JSON escapes (``escapingJSON(_:)``), which decode to the original.
///
/// ```swift
/// let line: TerminalText = "✓ \(presentation.name) (\(presentation.id))"   // the name is escaped
/// ```
package struct TerminalText: Sendable, Hashable, CustomStringConvertible, ExpressibleByStringInterpolation {
    /// The text as it is written out: literals as given, values escaped.
    package private(set) var rendered: String

    /// Text sclm produced itself (layout, colour codes, already escaped parts), used as is.
    package init(trusted text: String) { rendered = text }

    /// A literal: sclm's own words, used as is.
    package init(stringLiteral value: String) { rendered = value }

    /// Text built by interpolation: literal parts as is, interpolated values escaped.
    package init(stringInterpolation: StringInterpolation) { rendered = stringInterpolation.rendered }

    package var description: String { rendered }

    /// Builds a ``TerminalText``: literals are kept, each interpolated value is escaped unless it is already a
    /// ``TerminalText``.
    package struct StringInterpolation: StringInterpolationProtocol {
        var rendered = ""

        package init(literalCapacity: Int, interpolationCount: Int) {
            rendered.reserveCapacity(literalCapacity + interpolationCount * 8)
        }

        /// Appends sclm's own literal text.
        package mutating func appendLiteral(_ literal: String) { rendered += literal }

        /// Appends text that is already safe.
        package mutating func appendInterpolation(_ text: TerminalText) { rendered += text.rendered }

        /// Appends `value`'s description, escaped.
        package mutating func appendInterpolation(_ value: some CustomStringConvertible) {
            rendered += TerminalText.escaping(value.description)
        }
    }

    /// Appends `right` to `left`.
    package static func + (left: TerminalText, right: TerminalText) -> TerminalText {
        TerminalText(trusted: left.rendered + right.rendered)
    }

    /// Appends `right` to `left` in place.
    package static func += (left: inout TerminalText, right: TerminalText) { left.rendered += right.rendered }

    // MARK: - The sanitiser

    /// `text` with every character that could steer a terminal or disguise text shown as an escape: C0 controls
    /// (tab, CR and LF included), DEL, C1 controls, the line and paragraph separators (U+2028, U+2029) and the
    /// bidirectional embeddings, overrides and isolates (U+202A–U+202E, U+2066–U+2069) become `\u{…}` with the
    /// scalar's lowercase hex value, e.g. ESC `\u{1b}`, LF `\u{a}`, U+202E `\u{202e}`. Everything else, other
    /// non-ASCII text included, is kept.
    ///
    /// The one sanitiser for text that came from a server, a package or a user and is written to a terminal or a
    /// text report. The form is Swift's, one notation for every code point; a backslash already in the text is
    /// kept as it is, since the result is for people to read (scripts read `--json`, which keeps the exact text).
    package static func escaping(_ text: String) -> String {
        guard text.unicodeScalars.contains(where: isUnsafe) else { return text }
        var escaped = String.UnicodeScalarView()
        for scalar in text.unicodeScalars {
            if isUnsafe(scalar) {
                escaped.append(contentsOf: "\\u{\(String(scalar.value, radix: 16))}".unicodeScalars)
            } else {
                escaped.append(scalar)
            }
        }
        return String(escaped)
    }

    /// Whether `scalar` is shown escaped by ``escaping(_:)``: the one rule for unsafe characters, which package
    /// entry names are refused for too (`PATH-CONTROL-CHAR`).
    package static func isUnsafe(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x00...0x1F, 0x7F...0x9F, 0x2028...0x2029, 0x202A...0x202E, 0x2066...0x2069: true
        default: false
        }
    }

    /// `json` (JSON text from an encoder) with every unsafe scalar the encoder leaves raw (DEL, C1 controls,
    /// U+2028/U+2029, bidirectional controls) written as a JSON `\uXXXX` escape.
    ///
    /// The JSON still decodes to the exact text, but its bytes carry nothing that steers a terminal or a log
    /// viewer that shows them. These scalars can occur only inside strings (JSON's structure is printable
    /// ASCII and whitespace), so the escape is always valid there. C0 controls are left alone: inside strings
    /// the encoder has escaped them already, outside they are the JSON's own whitespace.
    package static func escapingJSON(_ json: String) -> String {
        let isRaw = { (scalar: Unicode.Scalar) in scalar.value >= 0x7F && isUnsafe(scalar) }
        guard json.unicodeScalars.contains(where: isRaw) else { return json }
        var escaped = String.UnicodeScalarView()
        for scalar in json.unicodeScalars {
            if isRaw(scalar) {
                let hex = String(scalar.value, radix: 16)
                escaped.append(contentsOf: ("\\u" + String(repeating: "0", count: 4 - hex.count) + hex).unicodeScalars)
            } else {
                escaped.append(scalar)
            }
        }
        return String(escaped)
    }
}

extension Sequence<TerminalText> {
    /// The texts joined with `separator` between them.
    package func joined(separator: TerminalText = "") -> TerminalText {
        TerminalText(trusted: map(\.rendered).joined(separator: separator.rendered))
    }
}
