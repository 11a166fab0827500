import SCLMCore

/// The JSON parser (`JSONParser`): the whole input as one document, as an envelope with its members kept,
/// and a parsed value written back with `JSONWriter`.
enum JSONParserTarget {
    static func fuzz(_ bytes: [UInt8]) {
        if let value = try? JSONParser.parse(bytes) {
            _ = JSONWriter.bytes(value)
        }
        _ = bytes.withUnsafeBufferPointer { try? JSONParser.parseKeepingMembers($0) }
    }
}
