import SCLMBridge
import SCLMCore

/// The bridge's input: the line framer over reads of a chosen size (with a chosen line limit, so the
/// overlong path runs too), each line read as a message or batch, each message's envelope checked and its
/// `Data` decoded as a command's parameters are (``JSONValueDecoder``, through ``BridgeRequest/decode(_:)``).
enum BridgeLineTarget {
    static func fuzz(_ bytes: [UInt8]) {
        var input = FuzzInput(bytes)
        var framer = LineFramer(maximumLineBytes: input.size() * 4)
        let readSize = input.size()
        let stream = input.rest
        var frames: [Frame] = []
        var start = 0
        while start < stream.count {
            let end = min(stream.count, start + readSize)
            framer.append(Array(stream[start..<end]), to: &frames)
            start = end
        }
        framer.finish(to: &frames)
        for case .line(let line) in frames {
            decode(Envelope.line(line))
        }
    }

    private static func decode(_ line: Envelope.Line) {
        let limits = BridgeLimits()
        switch line {
        case .message(let members):
            decodeParameters(try? Envelope.decode(members, limits: limits))
        case .batch(let items):
            for members in items.compactMap(\.objectValue) {
                decodeParameters(
                    try? Envelope.decode(members.lazy.map { (key: $0.key, value: $0.value) }, limits: limits))
            }
        case .bad:
            break
        }
    }

    /// Parameters of every shape a command declares: scalars, optionals, arrays, nested objects, open JSON.
    private struct Parameters: Decodable {
        struct Entry: Decodable {
            var id: Int64?
            var flags: [Bool?]?
        }
        var tableId: Int?
        var slideName: String?
        var ratio: Float?
        var count: UInt8?
        var ids: [String]?
        var entry: Entry?
        var entries: [[Int16]]?
        var data: JSONValue?
    }

    private static func decodeParameters(_ request: BridgeRequest?) {
        _ = try? request?.decode(Parameters.self)
    }
}
