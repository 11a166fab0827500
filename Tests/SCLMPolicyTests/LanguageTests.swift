import SCLMPolicy
import SCLMTestSupport
import Testing

/// `Language.parse`: case-insensitive names, no trimming, English by default; a locale tag picks its language.
@Suite(.tags(.small)) struct LanguageTests {
    struct Case: Sendable, CustomTestStringConvertible {
        let input: String
        let fallback: Language?
        let expected: Language
        var testDescription: String { "parse(\"\(input)\")\(fallback.map { " default \($0)" } ?? "") → \(expected)" }
    }

    static let cases: [Case] = [
        Case(input: "ca", fallback: nil, expected: .ca),
        Case(input: "CA", fallback: nil, expected: .ca),
        Case(input: "Ca", fallback: nil, expected: .ca),
        Case(input: "es", fallback: nil, expected: .es),
        Case(input: "EN", fallback: nil, expected: .en),
        Case(input: "ca-ES", fallback: nil, expected: .ca),
        Case(input: "es_ES", fallback: nil, expected: .es),
        Case(input: "ES-es", fallback: nil, expected: .es),
        Case(input: "ca_ES.UTF-8", fallback: nil, expected: .ca),
        Case(input: "ca@valencia", fallback: nil, expected: .ca),
        Case(input: "en-GB", fallback: .ca, expected: .en),
        Case(input: "fr-FR", fallback: nil, expected: .en),
        Case(input: "cat", fallback: nil, expected: .en),
        Case(input: "-ca", fallback: nil, expected: .en),
        Case(input: "fr", fallback: nil, expected: .en),
        Case(input: "", fallback: nil, expected: .en),
        Case(input: " ca", fallback: nil, expected: .en),
        Case(input: "fr", fallback: .es, expected: .es),
        Case(input: "ES", fallback: .ca, expected: .es),
    ]

    @Test(arguments: cases) func parsesCaseInsensitivelyWithLocaleTagsAndFallsBack(_ test: Case) {
        let parsed = test.fallback.map { Language.parse(test.input, default: $0) } ?? Language.parse(test.input)
        #expect(parsed == test.expected)
    }

    @Test func namesAreWhatStateAndTopicsUse() {
        #expect(Language.allCases.map(\.rawValue) == ["CA", "ES", "EN"])
        #expect(Language.allCases.map(\.code) == ["ca", "es", "en"])
    }

    @Test func alertTextsAreLocalized() {
        #expect(AlertTexts.checkboxLabel[.ca] == "No mostrar de nou")
        #expect(AlertTexts.checkboxLabel[.es] == "No mostrar de nuevo")
        #expect(AlertTexts.checkboxLabel[.en] == "Don't show again")
    }
}
