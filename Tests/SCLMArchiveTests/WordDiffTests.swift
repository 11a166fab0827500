import SCLMTestSupport
import Testing

@testable import SCLMArchive

/// The word diff reports the fewest deleted and inserted words, grouped per run and element, in document order.
@Suite(.tags(.small)) struct WordDiffTests {
    /// `old`, `new` (words separated by spaces, all in element `p`) and the changes expected, written as
    /// `-words` and `+words`.
    static let table: [(String, String, [String])] = [
        ("", "", []),
        ("same words here", "same words here", []),
        ("", "brand new", ["+brand new"]),
        ("all gone", "", ["-all gone"]),
        ("reduces systolic pressure by 15.2 mmHg", "reduces systolic pressure by 16.0 mmHg", ["-15.2", "+16.0"]),
        ("once daily dosing", "once or twice daily dosing", ["+or twice"]),
        ("a b c d e", "a c e", ["-b", "-d"]),
        ("a b c", "c b a", ["-a b", "+b a"]),
        ("x y z", "p q r", ["-x y z", "+p q r"]),
        ("the the the", "the the", ["-the"]),
    ]

    private static func words(_ text: String, in element: String = "p") -> [WordDiff.Word] {
        text.split(separator: " ").map { WordDiff.Word(text: String($0), element: element) }
    }

    @Test(arguments: table.indices)
    func changesMatchTheTable(_ row: Int) {
        let (old, new, expected) = Self.table[row]
        let changes = WordDiff.changes(from: Self.words(old), to: Self.words(new))
        let written = changes.map { ($0.kind == .deleted ? "-" : "+") + $0.text }
        #expect(written == expected, "\(old) → \(new)")
        #expect(changes.allSatisfy { $0.element == "p" })
    }

    @Test func changedWordsCarryTheirElement() {
        let old = Self.words("Cardiora lowers", in: "h1") + Self.words("blood pressure", in: "p#claim.lead")
        let new = Self.words("Cardiora lowers", in: "h1") + Self.words("arterial pressure", in: "p#claim.lead")
        #expect(
            WordDiff.changes(from: old, to: new) == [
                WordDiff.Change(.deleted, "blood", in: "p#claim.lead"),
                WordDiff.Change(.inserted, "arterial", in: "p#claim.lead"),
            ])
    }

    @Test func aRunSplitsWhereTheElementChanges() {
        let old = Self.words("one", in: "h1") + Self.words("two", in: "p")
        #expect(
            WordDiff.changes(from: old, to: []) == [
                WordDiff.Change(.deleted, "one", in: "h1"), WordDiff.Change(.deleted, "two", in: "p"),
            ])
    }
}
