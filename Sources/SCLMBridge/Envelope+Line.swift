import SCLMCore

extension Envelope {
    /// What one framed input line holds, before its messages are checked with ``decode(_:limits:)``.
    package enum Line: Sendable {
        /// One message object, members in text order with duplicates kept.
        case message([(key: String, value: JSONValue)])
        /// A `GetQueue()` batch: each item is its own message.
        case batch([JSONValue])
        /// Not a message: the text of the 400 answer.
        case bad(String)
    }

    /// Reads one line of input (a pure function of bytes, which the bridge's fuzz target calls): UTF-8,
    /// then JSON, then whether it is a message object or a batch.
    package static func line(_ bytes: [UInt8]) -> Line {
        // Nearly every line is ASCII; only lines with other bytes pay for full UTF-8 validation.
        guard bytes.allSatisfy({ $0 < 0x80 }) || String(validating: bytes, as: UTF8.self) != nil else {
            return .bad("the line is not valid UTF-8; send UTF-8 JSON")
        }
        let document: JSONParser.Document
        do {
            document = try bytes.withUnsafeBufferPointer { utf8 throws(JSONParser.Failure) in
                try JSONParser.parseKeepingMembers(utf8)
            }
        } catch {
            return .bad("malformed JSON: \(error)")
        }
        switch document {
        case .object(let members): return .message(members)
        case .value(.array(let items)): return .batch(items)
        case .value(let value):
            return .bad(
                "a message must be a JSON object {\"Command\":…,\"Data\":…,\"GUID\":…} or an array of them, got \(preview(value))"
            )
        }
    }
}
