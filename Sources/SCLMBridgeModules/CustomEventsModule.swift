import Foundation
import SCLMBridge
import SCLMCore
import SCLMStore
import Synchronization

/// CustomEvents: `setCustomEvent` (and its older name `setEventKey`), `getCustomEventByKey`,
/// `deleteCustomEventByKey`, `getCustomEventsObject`.
///
/// Keys and values are checked as StoryContent checks them: a key is 1…``maximumKeyLength`` characters
/// of `[A-Za-z0-9А-Яа-я_-]`, a value up to ``maximumValueLength`` characters of
/// `[A-Za-z0-9А-Яа-я_\-@#:;,. ]`. StoryContent's own length limits are not public; these bound what one
/// analytics event carries.
struct CustomEventsModule: HostModule {
    let host: PresentationHost
    let name = "CustomEvents"
    /// The longest key, in characters.
    static let maximumKeyLength = 128
    /// The longest value, in characters.
    static let maximumValueLength = 1024

    /// `setCustomEvent {key, value}`.
    struct SetParameters: Decodable {
        let key: String
        let value: LenientString?
    }

    /// `{key}`.
    struct KeyParameters: Decodable {
        let key: String
    }

    /// `getCustomEventsObject {sessionId, contentId}`; empty means the open session or presentation.
    struct ObjectParameters: Decodable {
        let sessionId: String?
        let contentId: LenientString?
    }

    static let declarations: BridgeCommandDeclarations<Self> = [
        .deferred("setCustomEvent", parameters: SetParameters.self) { module, parameters, _ in
            try await module.set(parameters)
        },
        .deferred("setEventKey", parameters: SetParameters.self) { module, parameters, _ in
            try await module.set(parameters)
        },
        .deferred("getCustomEventByKey", parameters: KeyParameters.self) { module, parameters, _ in
            let key = try Self.checkedKey(parameters.key)
            return .ok(["value": .string(try await module.host.customEvent(key: key))])
        },
        .deferred("deleteCustomEventByKey", parameters: KeyParameters.self) { module, parameters, _ in
            let key = try Self.checkedKey(parameters.key)
            try await module.host.deleteCustomEvent(key: key)
            return .ok(["key": .string(key)])
        },
        .deferred("getCustomEventsObject", parameters: ObjectParameters.self) { module, parameters, _ in
            try await module.object(parameters)
        },
    ]

    private func set(_ parameters: SetParameters) async throws -> BridgeReply {
        let key = try Self.checkedKey(parameters.key)
        let value = try Self.checkedValue(parameters.value?.value ?? "")
        try await host.setCustomEvent(key: key, value: value)
        return .ok([key: .string(value)])
    }

    private func object(_ parameters: ObjectParameters) async throws -> BridgeReply {
        let content = parameters.contentId.map(\.value).flatMap { $0.isEmpty ? nil : $0 }
        let presentationId = try content.map { text in
            guard let id = Int64(text) else {
                throw BridgeError(.badRequest, "contentId must be a presentation id, got '\(text)'")
            }
            return id
        }
        let sessionId = parameters.sessionId.flatMap { $0.isEmpty ? nil : $0 }
        return .ok(try await host.customEvents(sessionId: sessionId, presentationId: presentationId))
    }

    /// `key` if it is a valid custom event key.
    ///
    /// - Throws: ``BridgeError`` (400) saying what is allowed.
    static func checkedKey(_ key: String) throws -> String {
        guard !key.isEmpty, key.count <= maximumKeyLength, key.unicodeScalars.allSatisfy(isKeyScalar) else {
            throw BridgeError(
                .badRequest,
                "invalid custom event key '\(key.prefix(40))': use 1–\(maximumKeyLength) characters from A-Z a-z 0-9 А-Я а-я _ -"
            )
        }
        return key
    }

    /// `value` if it is a valid custom event value.
    ///
    /// - Throws: ``BridgeError`` (400) saying what is allowed.
    static func checkedValue(_ value: String) throws -> String {
        guard value.count <= maximumValueLength, value.unicodeScalars.allSatisfy(isValueScalar) else {
            throw BridgeError(
                .badRequest,
                "invalid custom event value: use at most \(maximumValueLength) characters from A-Z a-z 0-9 А-Я а-я _ - @ # : ; , . and space"
            )
        }
        return value
    }

    private static func isKeyScalar(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x41...0x5A, 0x61...0x7A, 0x30...0x39, 0x5F, 0x2D: true  // A-Z a-z 0-9 _ -
        case 0x0410...0x044F: true  // А-Я а-я (Ё/ё are outside these ranges, as in StoryContent)
        default: false
        }
    }

    private static func isValueScalar(_ scalar: Unicode.Scalar) -> Bool {
        if isKeyScalar(scalar) { return true }
        return "@#:;,. ".unicodeScalars.contains(scalar)
    }
}
