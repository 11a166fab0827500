import SCLMTestSupport
import Testing

@testable import SCLMCommands

@Suite(.tags(.small)) struct NearestNameTests {
    @Test func suggestsTheNearestNameWithinAThirdOfTheTypedLength() {
        #expect(NearestName.suggestion(for: "synk", in: ["sync", "show", "status"]) == "sync")
        #expect(NearestName.suggestion(for: "vaildate", in: ["validate", "list"]) == "validate")
        #expect(NearestName.suggestion(for: "frobnicate", in: ["sync", "validate"]) == nil)
        #expect(NearestName.distance("kitten", "sitting") == 3)
    }
}
