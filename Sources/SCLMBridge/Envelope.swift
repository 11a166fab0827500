import SCLMCore

/// The checks on the envelope of one inbound message: StoryCLM's `{Command, Data, GUID}`.
///
/// The three keys match case-insensitively (`Command`, `command`, `COMMAND`), other keys are ignored, the
/// command is trimmed (`"openMediaLibrary "` occurs in real content) and a missing or `null` `Data` is
/// `{}`. A message without a GUID (or with `"GUID":null`) is a notification.
package enum Envelope {
    /// Why a message cannot be run.
    package struct Rejection: Error, Sendable, Equatable {
        /// The GUID to answer, when it could be read; `nil` means the answer carries `"GUID":null`.
        package var guid: String?
        /// Whether the message is a notification (no GUID), so the rejection is only logged.
        package var isNotification: Bool
        /// The code and message to answer.
        package var error: BridgeError
    }

    /// Checks the members of one message object against `limits` and returns the request they make.
    ///
    /// - Throws: ``Rejection`` for an ambiguous key, an invalid GUID, a missing, non-string, empty or
    ///   over-long command.
    package static func decode(
        _ members: some Sequence<(key: String, value: JSONValue)>, limits: BridgeLimits
    ) throws(Rejection) -> BridgeRequest {
        var command: JSONValue?
        var data: JSONValue?
        var guid: JSONValue?
        for (key, value) in members {
            switch Key(key) {
            case .command?: try assign(value, to: &command, name: "Command")
            case .data?: try assign(value, to: &data, name: "Data")
            case .guid?: try assign(value, to: &guid, name: "GUID")
            case nil: continue
            }
        }
        let checkedGUID = try checkGUID(guid, limits: limits)
        let reject = { (message: String) in
            Rejection(guid: checkedGUID, isNotification: checkedGUID == nil, error: BridgeError(.badRequest, message))
        }
        guard let command else {
            throw reject("the message has no Command; send {\"Command\":…,\"Data\":…,\"GUID\":…}")
        }
        guard case .string(let name) = command else {
            throw reject("Command must be a string, got \(Self.preview(command))")
        }
        let trimmed = trimmedCommand(name)
        guard !trimmed.isEmpty else { throw reject("Command is empty") }
        guard trimmed.utf8.count <= limits.maximumCommandBytes else {
            throw reject("Command is longer than \(limits.maximumCommandBytes) bytes")
        }
        let payload = (data == nil || data == .null) ? JSONValue.object([:]) : data ?? [:]
        return BridgeRequest(command: trimmed, data: payload, guid: checkedGUID)
    }

    /// `name` as the command it runs: without leading and trailing whitespace and newlines (`"go\n"` is `go`).
    /// Every filter on command names (the render's `go`/`open`) must use this, so it sees what the server runs.
    package static func trimmedCommand(_ name: String) -> String {
        name.trimmingWhitespace()
    }

    /// Whether `guid` is a valid GUID under `limits`: 1…128 bytes of `[A-Za-z0-9._:-]`.
    package static func isValidGUID(_ guid: String, limits: BridgeLimits) -> Bool {
        let utf8 = guid.utf8
        guard !utf8.isEmpty, utf8.count <= limits.maximumGUIDBytes else { return false }
        return utf8.allSatisfy { byte in
            switch byte {
            case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
                UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: ":"),
                UInt8(ascii: "-"):
                true
            default: false
            }
        }
    }

    private enum Key {
        case command, data, guid

        init?(_ key: String) {
            // ASCII case folding: OR-ing 0x20 maps only 'C'/'c' (and so on) onto the lowercase letters.
            let utf8 = key.utf8
            func matches(_ name: StaticString) -> Bool {
                utf8.count == name.utf8CodeUnitCount
                    && utf8.elementsEqual(UnsafeBufferPointer(start: name.utf8Start, count: name.utf8CodeUnitCount)) {
                        $0 | 0x20 == $1
                    }
            }
            if matches("guid") {
                self = .guid
            } else if matches("data") {
                self = .data
            } else if matches("command") {
                self = .command
            } else {
                return nil
            }
        }
    }

    private static func assign(_ value: JSONValue, to slot: inout JSONValue?, name: String) throws(Rejection) {
        guard slot == nil else {
            throw Rejection(
                guid: nil, isNotification: false,
                error: BridgeError(
                    .badRequest, "the message has more than one \(name) key (keys match case-insensitively)"))
        }
        slot = value
    }

    private static func checkGUID(_ value: JSONValue?, limits: BridgeLimits) throws(Rejection) -> String? {
        switch value {
        case nil, .null?: return nil
        case .string(let guid)? where isValidGUID(guid, limits: limits): return guid
        case let value?:
            throw Rejection(
                guid: nil, isNotification: false,
                error: BridgeError(
                    .badRequest,
                    "invalid GUID \(preview(value)): use a string of 1–\(limits.maximumGUIDBytes) characters from [A-Za-z0-9._:-]"
                ))
        }
    }

    /// A short JSON rendering of `value` for error messages.
    static func preview(_ value: JSONValue) -> String {
        let text = String(decoding: JSONWriter.bytes(value), as: UTF8.self)
        return text.count > 64 ? String(text.prefix(61)) + "..." : text
    }
}

extension String {
    /// The string without leading and trailing whitespace and newlines.
    func trimmingWhitespace() -> String {
        if let first = utf8.first, let last = utf8.last, Self.isPlainASCII(first), Self.isPlainASCII(last) {
            return self
        }
        guard let first = firstIndex(where: { !$0.isWhitespace }),
            let last = lastIndex(where: { !$0.isWhitespace })
        else { return "" }
        return String(self[first...last])
    }

    private static func isPlainASCII(_ byte: UInt8) -> Bool { byte > 0x20 && byte < 0x7F }
}
