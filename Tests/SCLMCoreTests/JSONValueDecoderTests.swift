import Foundation
import SCLMCore
import SCLMTestSupport
import Testing

/// Decoding from a parsed value gives what `JSONDecoder` gives from the text — the same values, and for a
/// payload of the wrong shape the same error in the words a bridge answer shows.
@Suite(.tags(.small)) struct JSONValueDecoderTests {
    struct Entry: Decodable, Equatable {
        var id: Int
        var name: String
        var score: Double?
        var tags: [String]
        var flags: [Bool?]?
        var extra: JSONValue?
        var small: Int8?
        var nested: [[Int64]]?
    }

    static let payloads = [
        #"{"id":1,"name":"a","tags":[]}"#,
        #"{"id":1,"name":"a","score":2,"tags":["x","y"],"flags":[true,null,false],"extra":{"k":[1,2.5,"s",null]}}"#,
        #"{"id":1.0,"name":"a","tags":[],"score":null,"small":-128,"nested":[[1,2],[],[9007199254740993]]}"#,
        #"{"id":"1","name":"a","tags":[]}"#,
        #"{"id":1,"tags":[]}"#,
        #"{"id":1,"name":null,"tags":[]}"#,
        #"{"id":1,"name":"a","tags":[1]}"#,
        #"{"id":1,"name":"a","tags":{}}"#,
        #"{"id":1.5,"name":"a","tags":[]}"#,
        #"{"id":1,"name":"a","tags":[],"small":300}"#,
        #"{"id":1,"name":"a","tags":[],"flags":[1]}"#,
        #"{"id":1,"name":"a","tags":[],"nested":[[1],["2"]]}"#,
        #"[1,2]"#,
        #"null"#,
    ]

    @Test(arguments: payloads) func decodesAsJSONDecoderDoes(_ text: String) throws {
        let value = try JSONValue.parse(Data(text.utf8))
        let expected = Result { try JSONDecoder().decode(Entry.self, from: Data(text.utf8)) }
        let decoded = Result { try JSONValueDecoder.decode(Entry.self, from: value) }
        switch (expected, decoded) {
        case (.success(let expected), .success(let decoded)):
            #expect(decoded == expected)
        case (.failure(let expected), .failure(let decoded)):
            if case DecodingError.dataCorrupted = expected {
                guard case DecodingError.dataCorrupted = decoded else {
                    Issue.record("expected a corrupted-data error, got \(decoded)")
                    return
                }
            } else {
                #expect(JSONValue.describe(decodingError: decoded) == JSONValue.describe(decodingError: expected))
            }
        default:
            Issue.record("JSONDecoder: \(expected); JSONValueDecoder: \(decoded)")
        }
    }

    @Test func aJSONValueInsideIsTakenAsItIs() throws {
        struct Holder: Decodable { var data: JSONValue }
        let value: JSONValue = ["data": ["n": .int(9_007_199_254_740_993), "d": .double(1.0)]]
        #expect(try JSONValueDecoder.decode(Holder.self, from: value).data == value["data"])
    }

    @Test func errorsNameWhereTheyAre() {
        #expect(throws: DecodingError.self) { try JSONValueDecoder.decode(Entry.self, from: ["id": 1]) }
        do {
            _ = try JSONValueDecoder.decode(Entry.self, from: ["id": 1, "name": "a", "tags": ["x", 2]])
            Issue.record("decoded a number as a string")
        } catch {
            #expect(JSONValue.describe(decodingError: error) == "expected a string at tags.[1]")
        }
    }
}
