import SCLMBridge
import SCLMCore
import SCLMTestSupport
import Testing

@Suite(.tags(.small)) struct EnvelopeTests {
    private func decode(_ text: String) throws(Envelope.Rejection) -> BridgeRequest {
        let members = (try? JSONParser.parse(Array(text.utf8)).objectValue) ?? [:]
        return try Envelope.decode(members.map { (key: $0.key, value: $0.value) }, limits: BridgeLimits())
    }

    @Test(arguments: [
        #"{"Command":"go","Data":{"slideName":"2.html"},"GUID":"g1"}"#,
        #"{"command":"go","data":{"slideName":"2.html"},"guid":"g1"}"#,
        #"{"cOmMaNd":" go\n","DATA":{"slideName":"2.html"},"Guid":"g1","extra":1}"#,
    ])
    func matchesTheThreeKeysInAnyCaseAndTrimsTheCommand(_ text: String) throws {
        let envelope = try decode(text)
        #expect(envelope == BridgeRequest(command: "go", data: ["slideName": "2.html"], guid: "g1"))
    }

    @Test func missingOrNullDataIsAnEmptyObjectAndNoGUIDIsANotification() throws {
        #expect(
            try decode(#"{"Command":"closePresentation"}"#)
                == BridgeRequest(command: "closePresentation", data: [:], guid: nil))
        #expect(
            try decode(#"{"Command":"x","Data":null,"GUID":null}"#) == BridgeRequest(command: "x", data: [:], guid: nil)
        )
    }

    @Test(arguments: [#"{"Command":"x","GUID":7}"#, #"{"Command":"x","GUID":"a b"}"#, #"{"Command":"x","GUID":""}"#])
    func invalidGUIDsAreRejectedWithoutAGUID(_ text: String) {
        let rejection = #expect(throws: Envelope.Rejection.self) { try decode(text) }
        #expect(rejection?.guid == nil)
        #expect(rejection?.isNotification == false)
        #expect(rejection?.error.code == .badRequest)
    }

    @Test func aGUIDOfTheMaximumLengthIsFineAndOneMoreIsNot() throws {
        let limit = BridgeLimits().maximumGUIDBytes
        #expect(Envelope.isValidGUID(String(repeating: "a", count: limit), limits: BridgeLimits()))
        #expect(!Envelope.isValidGUID(String(repeating: "a", count: limit + 1), limits: BridgeLimits()))
        #expect(Envelope.isValidGUID("GUID_1a2b:c.d-e_f", limits: BridgeLimits()))
    }

    @Test func aMissingCommandIsAnsweredWhenThereIsAGUIDAndOnlyLoggedOtherwise() {
        let answered = #expect(throws: Envelope.Rejection.self) { try decode(#"{"Data":{},"GUID":"g"}"#) }
        #expect(answered?.guid == "g")
        #expect(answered?.isNotification == false)
        let logged = #expect(throws: Envelope.Rejection.self) { try decode(#"{"Command":5}"#) }
        #expect(logged?.isNotification == true)
    }

    @Test func keysThatDifferOnlyInCaseAreAmbiguous() {
        let rejection = #expect(throws: Envelope.Rejection.self) {
            try decode(#"{"Command":"x","GUID":"a","guid":"b"}"#)
        }
        #expect(rejection?.error.message.contains("more than one GUID") == true)
    }

    @Test func responsesHaveStoryCLMsKeysInOrder() {
        var bytes: [UInt8] = []
        BridgeResponse(guid: "g", reply: .ok(["slide": "index.html"])).write(to: &bytes)
        #expect(
            String(decoding: bytes, as: UTF8.self)
                == #"{"GUID":"g","Status":"Success","ErrorCode":200,"ErrorMessage":"","Data":{"slide":"index.html"}}"#)
        bytes = []
        BridgeResponse(guid: nil, error: BridgeError(.badRequest, "bad \"line\"")).write(to: &bytes)
        #expect(
            String(decoding: bytes, as: UTF8.self)
                == #"{"GUID":null,"Status":"Failure","ErrorCode":400,"ErrorMessage":"bad \"line\"","Data":null}"#)
        bytes = []
        BridgeEvent("slideChanged", ["slide": "2.html"]).write(to: &bytes)
        #expect(String(decoding: bytes, as: UTF8.self) == #"{"Event":"slideChanged","Data":{"slide":"2.html"}}"#)
    }

    struct CodeCase: Sendable, CustomTestStringConvertible {
        let category: ErrorCategory
        let code: Int
        var testDescription: String { "\(category) → \(code)" }
    }

    @Test(arguments: [
        CodeCase(category: .usage, code: 400), CodeCase(category: .notFound, code: 404),
        CodeCase(category: .policy, code: 403), CodeCase(category: .network, code: 502),
        CodeCase(category: .temporary, code: 503), CodeCase(category: .cancelled, code: 499),
        CodeCase(category: .storage, code: 500), CodeCase(category: .internal, code: 500),
    ])
    func errorCategoriesMapToBridgeCodes(_ testCase: CodeCase) {
        #expect(BridgeError.Code(for: SCLMError(testCase.category, "x")).rawValue == testCase.code)
    }

    @Test func linesAreReadAsAMessageABatchOrWhyNot() {
        guard case .message(let members) = Envelope.line(Array(#"{"Command":"a","command":"b"}"#.utf8)) else {
            Issue.record("expected a message")
            return
        }
        #expect(members.map(\.key) == ["Command", "command"])
        guard case .batch(let items) = Envelope.line(Array(#"[{"Command":"a"},1]"#.utf8)) else {
            Issue.record("expected a batch")
            return
        }
        #expect(items.count == 2)
        for (line, reason) in [
            ([0x7B, 0xFF, 0x7D], "the line is not valid UTF-8; send UTF-8 JSON"),
            (Array("{\"a\":".utf8), "malformed JSON: unexpected end of text, expected a value at byte 5"),
            (
                Array("42".utf8),
                "a message must be a JSON object {\"Command\":…,\"Data\":…,\"GUID\":…} or an array of them, got 42"
            ),
        ] as [([UInt8], String)] {
            guard case .bad(let message) = Envelope.line(line) else {
                Issue.record("expected a bad line for \(line)")
                continue
            }
            #expect(message == reason)
        }
    }
}
