import Foundation
import SCLMCore
import Testing

@Suite struct TimestampTests {
    struct Case: Sendable, CustomTestStringConvertible {
        let text: String
        let epochMilliseconds: Int64?
        var testDescription: String { text }
    }

    static let cases: [Case] = [
        Case(text: "2016-12-27T11:06:14.447", epochMilliseconds: 1_482_836_774_447),
        Case(text: "2016-12-27T11:06:14", epochMilliseconds: 1_482_836_774_000),
        Case(text: "2016-12-27T11:06:14.4", epochMilliseconds: 1_482_836_774_400),
        Case(text: "2016-12-27T11:06:14.4470000", epochMilliseconds: 1_482_836_774_447),
        Case(text: "2016-12-27T11:06:14.447Z", epochMilliseconds: 1_482_836_774_447),
        Case(text: "2016-12-27T14:06:14.447+03:00", epochMilliseconds: 1_482_836_774_447),
        Case(text: "yesterday", epochMilliseconds: nil),
    ]

    @Test(arguments: cases) func parsesServerDatesWithVariableFractions(_ example: Case) {
        #expect(Timestamp.date(from: example.text).map(Timestamp.epochMilliseconds) == example.epochMilliseconds)
    }

    @Test func writesUTCWithMilliseconds() {
        let date = Date(timeIntervalSince1970: 1_482_836_774.447)
        #expect(Timestamp.string(from: date) == "2016-12-27T11:06:14.447Z")
    }
}
