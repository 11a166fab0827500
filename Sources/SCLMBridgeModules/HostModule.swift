import Foundation
import SCLMBridge
import SCLMCore
import SCLMStore
import Synchronization

/// A StoryCLM module on the shared ``PresentationHost``: every one runs in the host's lane, answers its
/// in-memory commands at once (``immediate(_:)``) and the rest (store, files) as tasks (``deferred(_:)``).
protocol HostModule: BridgeModule {
    var host: PresentationHost { get }
    /// Answers commands that only touch in-memory state; `nil` for the others. Must not block.
    ///
    /// - Throws: ``BridgeError``.
    func immediate(_ request: BridgeRequest) throws -> BridgeReply?
    /// Answers the commands ``immediate(_:)`` leaves out.
    ///
    /// - Throws: ``BridgeError`` or store errors.
    func deferred(_ request: BridgeRequest) async throws -> BridgeReply
}

extension HostModule {
    var lane: String? { PresentationHost.lane }

    func reply(immediatelyTo request: BridgeRequest) throws -> BridgeReply? {
        try immediate(request)
    }

    func handle(_ request: BridgeRequest, context: BridgeContext) async throws -> BridgeReply {
        if let reply = try immediate(request) { return reply }
        return try await deferred(request)
    }

    func immediate(_ request: BridgeRequest) throws -> BridgeReply? { nil }

    func deferred(_ request: BridgeRequest) async throws -> BridgeReply {
        throw BridgeError.unknownCommand(request.command)
    }
}

/// An integer that content may send as a number or as a numeric string (`"presId":"5"`).
struct LenientInt: Decodable, Equatable {
    let value: Int64

    init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if let number = try? container.decode(Int64.self) {
            value = number
        } else if let text = try? container.decode(String.self),
            let number = Int64(text.trimmingCharacters(in: .whitespaces))
        {
            value = number
        } else {
            throw DecodingError.typeMismatch(
                Int64.self,
                .init(codingPath: decoder.codingPath, debugDescription: "expected an integer or a numeric string"))
        }
    }
}

/// A string that content may send as a string, a number or a boolean (custom event values).
struct LenientString: Decodable, Equatable {
    let value: String

    init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if let text = try? container.decode(String.self) {
            value = text
        } else if let number = try? container.decode(Int64.self) {
            value = String(number)
        } else if let number = try? container.decode(Double.self) {
            value = String(number)
        } else if let flag = try? container.decode(Bool.self) {
            value = String(flag)
        } else {
            throw DecodingError.typeMismatch(
                String.self, .init(codingPath: decoder.codingPath, debugDescription: "expected a string"))
        }
    }
}
