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

    @Test func aSwapOfTwoNeighbouringLettersIsOneEdit() {
        #expect(NearestName.distance("snyc", "sync") == 1)
        #expect(NearestName.suggestion(for: "snyc", in: ["sync", "show", "status"]) == "sync")
        #expect(NearestName.suggestion(for: "gte", in: ["get", "set", "unset", "list"]) == "get")
        #expect(NearestName.distance("ab", "ba") == 1)
        #expect(NearestName.distance("abc", "ca") == 3)
    }
}
