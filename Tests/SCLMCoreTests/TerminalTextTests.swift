import Foundation
import SCLMCore
import SCLMTestSupport
import Testing

/// The one sanitiser for text shown on a terminal, and the interpolation that applies it.
@Suite(.tags(.small)) struct TerminalTextTests {
    struct EscapeCase: Sendable, CustomTestStringConvertible {
        let name: String
        let input: String
        let shown: String
        var testDescription: String { name }
    }

    static let cases: [EscapeCase] = [
        .init(name: "window title (OSC … BEL)", input: "a\u{1B}]0;pwned\u{07}b", shown: "a\\u{1b}]0;pwned\\u{7}b"),
        .init(name: "clear screen (CSI 2J)", input: "\u{1B}[2Jx", shown: "\\u{1b}[2Jx"),
        .init(name: "CR, LF and tab", input: "a\r\nb\tc", shown: "a\\u{d}\\u{a}b\\u{9}c"),
        .init(name: "NUL and DEL", input: "a\u{0}b\u{7F}", shown: "a\\u{0}b\\u{7f}"),
        .init(name: "C1 controls (CSI, NEL)", input: "\u{9B}31m\u{85}", shown: "\\u{9b}31m\\u{85}"),
        .init(
            name: "bidi overrides and isolates", input: "\u{202A}\u{202E}x\u{2066}\u{2069}",
            shown: "\\u{202a}\\u{202e}x\\u{2066}\\u{2069}"),
        .init(name: "line and paragraph separators", input: "a\u{2028}b\u{2029}", shown: "a\\u{2028}b\\u{2029}"),
        .init(
            name: "ordinary text, accents and emoji kept", input: "Cardiora 10 mg — Détail ✓ 🙂",
            shown: "Cardiora 10 mg — Détail ✓ 🙂"),
    ]

    @Test(arguments: cases) func escapesWhatCouldSteerATerminal(_ example: EscapeCase) {
        #expect(TerminalText.escaping(example.input) == example.shown)
    }

    @Test func jsonKeepsTheExactTextButNoRawUnsafeCharacter() throws {
        let text = "a\u{7F}\u{85}\u{202E}\u{2028}\u{2066}é🙂\"\u{1B}"
        let encoded = String(decoding: try JSONEncoder().encode([text]), as: UTF8.self)
        let escaped = TerminalText.escapingJSON(encoded)
        #expect(escaped == #"["a\u007f\u0085\u202e\u2028\u2066é🙂\"\u001b"]"#)
        #expect(try JSONDecoder().decode([String].self, from: Data(escaped.utf8)) == [text])
        // The JSON's own whitespace (pretty-printed output) stays as it is.
        #expect(TerminalText.escapingJSON("[\n  \"\u{202E}\"\n]") == "[\n  \"\\u202e\"\n]")
    }

    @Test func interpolatedValuesAreEscapedAndLiteralsKept() {
        let name = "x\u{1B}[2J"
        let text: TerminalText = "\u{1B}[1m\(name)\n\(42)"
        #expect(text.rendered == "\u{1B}[1mx\\u{1b}[2J\n42")
    }

    @Test func textAlreadySafeIsNotEscapedTwice() {
        let inner: TerminalText = "a\(("\u{1B}"))"
        let outer: TerminalText = "[\(inner)]"
        #expect(outer.rendered == "[a\\u{1b}]")
        #expect([inner, "b"].joined(separator: "\n").rendered == "a\\u{1b}\nb")
    }
}
