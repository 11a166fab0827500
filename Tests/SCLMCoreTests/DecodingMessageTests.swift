import Foundation
import SCLMCore
import SCLMTestSupport
import Testing

/// Decoding errors read as JSON kinds ("expected a JSON object"), never as Swift type names.
@Suite(.tags(.small)) struct DecodingMessageTests {
    struct Payload: Decodable {
        let name: String
        let count: Int
        let items: [String]
    }

    struct MessageCase: Sendable, CustomTestStringConvertible {
        let json: String
        let message: String
        var testDescription: String { json }
    }

    static let cases = [
        MessageCase(json: "[1]", message: "expected a JSON object"),
        MessageCase(json: #"{"name":1,"count":1,"items":[]}"#, message: "expected a string at name"),
        MessageCase(json: #"{"name":"a","count":"x","items":[]}"#, message: "expected a whole number at count"),
        MessageCase(json: #"{"name":"a","count":1,"items":{}}"#, message: "expected a JSON array at items"),
        MessageCase(json: #"{"name":null,"count":1,"items":[]}"#, message: "expected a string, found null at name"),
    ]

    @Test(arguments: cases) func aTypeMismatchNamesTheJSONKind(_ example: MessageCase) throws {
        let error = try #require(throws: DecodingError.self) {
            try JSONDecoder().decode(Payload.self, from: Data(example.json.utf8))
        }
        let message = JSONValue.describe(decodingError: error)
        #expect(message == example.message)
        #expect(!message.contains("Dictionary") && !message.contains("Array<") && !message.contains("Swift."))
        #expect((error as any Error).userMessage == "unexpected JSON: \(example.message)")
    }
}
