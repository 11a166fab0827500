import Foundation
import SCLMCore
import Testing

@Suite struct JSONValueTests {
    @Test func keepsIntegersApartFromDoubles() throws {
        let value = try JSONValue.parse(
            Data(#"{"id":9007199254740993,"ratio":0.5,"ok":true,"name":"x","none":null}"#.utf8))
        #expect(value["id"] == .int(9_007_199_254_740_993))
        #expect(value["ratio"] == .double(0.5))
        #expect(value["ok"] == .bool(true))
        #expect(value["none"] == .null)
        #expect(value["missing"] == nil)
    }

    @Test func encodesWithSortedKeysSoEqualValuesGiveEqualBytes() {
        let value: JSONValue = ["b": 1, "a": ["x", 2.5, nil]]
        #expect(value.jsonString == #"{"a":["x",2.5,null],"b":1}"#)
    }

    @Test func rejectsMalformedTextWithAUsageError() {
        let error = #expect(throws: SCLMError.self) { try JSONValue.parse(Data("{\"a\":".utf8)) }
        #expect(error?.category == .usage)
    }
}
