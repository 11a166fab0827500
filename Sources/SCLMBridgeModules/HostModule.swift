import Foundation
import SCLMBridge
import SCLMCore
import SCLMStore
import Synchronization

/// A StoryCLM module on the shared ``PresentationHost``: every one runs in the host's lane; its
/// declarations answer in-memory commands at once (`.immediate`) and the rest (store, files) as tasks
/// (`.deferred`).
protocol HostModule: DeclaredBridgeModule {
    var host: PresentationHost { get }
}

extension HostModule {
    var lane: String? { PresentationHost.lane }
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
