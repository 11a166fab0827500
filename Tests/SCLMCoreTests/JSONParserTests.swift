import Foundation
import SCLMCore
import SCLMTestSupport
import Testing

@Suite(.tags(.small)) struct JSONParserTests {
    struct Case: Sendable, CustomTestStringConvertible {
        let text: String
        let expected: JSONValue
        var testDescription: String { text }
    }

    static let valid: [Case] = [
        Case(
            text: #"{"a":[1,-2,2.5,1e3,true,false,null,"x"]}"#,
            expected: ["a": [1, -2, 2.5, 1000.0, true, false, nil, "x"]]),
        Case(text: " \t\r\n[ ] ", expected: []),
        Case(text: #""é \u00e9 \ud83d\ude00 \n\t\"\\\/""#, expected: .string("é é 😀 \n\t\"\\/")),
        Case(text: #""\ud800x""#, expected: .string("\u{FFFD}x")),
        Case(text: "9223372036854775807", expected: .int(Int64.max)),
        Case(text: "-9223372036854775808", expected: .int(Int64.min)),
        Case(text: "9223372036854775808", expected: .double(9_223_372_036_854_775_808)),
        Case(text: #"{"k":1,"k":2}"#, expected: ["k": 2]),
        Case(text: "0", expected: 0),
    ]

    @Test(arguments: valid) func parsesValidJSON(_ testCase: Case) throws {
        #expect(try JSONParser.parse(Array(testCase.text.utf8)) == testCase.expected)
    }

    @Test(arguments: [
        "", "{", "[1,]", "{\"a\" 1}", "01", "1.", "-", "tru", "\"unterminated", "\"tab\there\"", "\"\\x\"",
        "[1] 2", "{\"a\":1,}", "NaN", "1e400", "\"\\u12\"",
    ])
    func rejectsMalformedTextWithAnOffset(_ text: String) {
        let error = #expect(throws: JSONParser.Failure.self) { try JSONParser.parse(Array(text.utf8)) }
        #expect((error?.offset ?? -1) >= 0)
    }

    @Test func rejectsNestingBeyondTheLimit() {
        let deep =
            String(repeating: "[", count: JSONParser.maximumDepth + 1)
            + String(repeating: "]", count: JSONParser.maximumDepth + 1)
        #expect(throws: JSONParser.Failure.self) { try JSONParser.parse(Array(deep.utf8)) }
        let fine = String(repeating: "[", count: 100) + String(repeating: "]", count: 100)
        #expect((try? JSONParser.parse(Array(fine.utf8))) != nil)
    }

    @Test func keepsTopLevelMembersInOrderWithDuplicates() throws {
        let text = Array(#"{"GUID":"a","Data":{},"guid":"b"}"#.utf8)
        let document = try text.withUnsafeBufferPointer { try JSONParser.parseKeepingMembers($0) }
        guard case .object(let members) = document else {
            Issue.record("expected an object")
            return
        }
        #expect(members.map(\.key) == ["GUID", "Data", "guid"])
        #expect(members.last?.value == "b")
    }

    @Test func writerRoundTripsAndEscapesOnlyWhatJSONNeeds() throws {
        let value: JSONValue = ["b": ["x\n\"q\"\u{01}", 1, -7, 2.5, nil, true], "a": "/путь/", "c": .double(.nan)]
        let text = String(decoding: JSONWriter.bytes(value), as: UTF8.self)
        #expect(text == #"{"a":"/путь/","b":["x\n\"q\"\u0001",1,-7,2.5,null,true],"c":null}"#)
        #expect(try JSONParser.parse(Array(text.utf8))["b"] == value["b"])
        #expect(!text.contains("\n"))
    }

    @Test func agreesWithFoundationOnTheSameText() throws {
        let text = #"{"Command":"go","Data":{"slideName":"2.html","data":{"n":[1,2,{"deep":"ok"}]}},"GUID":"GUID_1"}"#
        #expect(try JSONParser.parse(Array(text.utf8)) == (try JSONValue.parse(Data(text.utf8))))
    }

    @Test func aMillionNestedArraysAreAParseErrorNotAStackOverflow() {
        for opening in ["[", "{\"a\":"] {
            let deep = Array(String(repeating: opening, count: 1_000_000).utf8)
            #expect {
                try JSONParser.parse(deep)
            } throws: { error in
                (error as? JSONParser.Failure)?.reason == "nesting deeper than \(JSONParser.maximumDepth) levels"
            }
        }
    }

    @Test func integersAtAndPastTheLimitsOfInt64() throws {
        #expect(try JSONParser.parse(Array("9223372036854775807".utf8)) == .int(.max))
        #expect(try JSONParser.parse(Array("-9223372036854775808".utf8)) == .int(.min))
        #expect(try JSONParser.parse(Array("9223372036854775808".utf8)) == .double(0x1p63))
        #expect(try JSONParser.parse(Array("-9223372036854775809".utf8)) == .double(-0x1p63))
        #expect(try JSONParser.parse(Array("36893488147419103232".utf8)) == .double(0x1p65))
        #expect(throws: JSONParser.Failure.self) { try JSONParser.parse(Array("1e400".utf8)) }
    }
}
