import Foundation

/// Any JSON value, for payloads whose shape is open (bridge `Data`, raw server records, config files).
///
/// Integers and floating-point numbers are kept apart so that ids and counters survive a round trip
/// unchanged. Objects are unordered; encode with sorted keys where a stable output matters.
package enum JSONValue: Sendable, Equatable, Hashable {
    case null
    case bool(Bool)
    case int(Int64)
    case double(Double)
    case string(String)
    case array([JSONValue])
    case object([String: JSONValue])
}

// MARK: - Accessors

extension JSONValue {
    /// The string, if this is a string.
    package var stringValue: String? {
        if case .string(let value) = self { return value }
        return nil
    }

    /// The integer, if this is an integer or a double with no fractional part.
    package var intValue: Int64? {
        switch self {
        case .int(let value): return value
        case .double(let value) where value.rounded() == value && abs(value) < 9.0e15: return Int64(value)
        default: return nil
        }
    }

    /// The number as a double, if this is a number.
    package var doubleValue: Double? {
        switch self {
        case .int(let value): Double(value)
        case .double(let value): value
        default: nil
        }
    }

    /// The boolean, if this is a boolean.
    package var boolValue: Bool? {
        if case .bool(let value) = self { return value }
        return nil
    }

    /// The elements, if this is an array.
    package var arrayValue: [JSONValue]? {
        if case .array(let value) = self { return value }
        return nil
    }

    /// The members, if this is an object.
    package var objectValue: [String: JSONValue]? {
        if case .object(let value) = self { return value }
        return nil
    }

    /// Whether this is `null`.
    package var isNull: Bool { self == .null }

    /// The member named `key` of an object, or `nil` for a missing key or a non-object.
    package subscript(key: String) -> JSONValue? {
        objectValue?[key]
    }
}

// MARK: - Literals

extension JSONValue: ExpressibleByNilLiteral, ExpressibleByBooleanLiteral, ExpressibleByIntegerLiteral,
    ExpressibleByFloatLiteral, ExpressibleByStringLiteral, ExpressibleByArrayLiteral,
    ExpressibleByDictionaryLiteral
{
    package init(nilLiteral: ()) { self = .null }
    package init(booleanLiteral value: Bool) { self = .bool(value) }
    package init(integerLiteral value: Int64) { self = .int(value) }
    package init(floatLiteral value: Double) { self = .double(value) }
    package init(stringLiteral value: String) { self = .string(value) }
    package init(arrayLiteral elements: JSONValue...) { self = .array(elements) }
    package init(dictionaryLiteral elements: (String, JSONValue)...) {
        self = .object(Dictionary(elements, uniquingKeysWith: { _, last in last }))
    }
}

// MARK: - Codable

extension JSONValue: Codable {
    package init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if container.decodeNil() {
            self = .null
        } else if let value = try? container.decode(Bool.self) {
            self = .bool(value)
        } else if let value = try? container.decode(Int64.self) {
            self = .int(value)
        } else if let value = try? container.decode(Double.self) {
            self = .double(value)
        } else if let value = try? container.decode(String.self) {
            self = .string(value)
        } else if let value = try? container.decode([JSONValue].self) {
            self = .array(value)
        } else {
            self = .object(try container.decode([String: JSONValue].self))
        }
    }

    package func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        switch self {
        case .null: try container.encodeNil()
        case .bool(let value): try container.encode(value)
        case .int(let value): try container.encode(value)
        case .double(let value): try container.encode(value)
        case .string(let value): try container.encode(value)
        case .array(let value): try container.encode(value)
        case .object(let value): try container.encode(value)
        }
    }
}

// MARK: - Serialization

extension JSONValue {
    /// Parses UTF-8 JSON text.
    ///
    /// - Throws: `SCLMError` (`.usage`) when the text is not valid JSON.
    package static func parse(_ data: Data) throws -> JSONValue {
        do {
            return try JSONDecoder().decode(JSONValue.self, from: data)
        } catch {
            throw SCLMError(.usage, "invalid JSON: \(JSONValue.describe(decodingError: error))")
        }
    }

    /// Encodes as compact JSON text with sorted keys, so equal values give equal bytes.
    package func encoded() -> Data {
        (try? JSONValue.sortedEncoder.encode(self)) ?? Data("null".utf8)
    }

    /// Compact JSON text with sorted keys.
    package var jsonString: String { String(decoding: encoded(), as: UTF8.self) }

    private static let sortedEncoder: JSONEncoder = {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return encoder
    }()

    /// A short, human explanation of a `DecodingError` (no payload bytes).
    package static func describe(decodingError error: any Error) -> String {
        guard let error = error as? DecodingError else { return String(describing: error) }
        switch error {
        case .dataCorrupted(let context): return context.debugDescription
        case .keyNotFound(let key, let context): return "missing key '\(key.stringValue)'\(path(context))"
        case .typeMismatch(let type, let context): return "expected \(kind(of: type))\(path(context))"
        case .valueNotFound(let type, let context): return "expected \(kind(of: type)), found null\(path(context))"
        @unknown default: return "the JSON does not have the expected shape"
        }
    }

    /// The JSON kind a Swift type decodes from, in words ("a JSON object", "a string"): messages never show
    /// Swift type names such as `Dictionary<String, Any>`.
    static func kind(of type: Any.Type) -> String {
        switch type {
        case is String.Type, is Substring.Type: return "a string"
        case is Bool.Type: return "true or false"
        case is Int.Type, is Int64.Type, is Int32.Type, is Int16.Type, is Int8.Type, is UInt.Type, is UInt64.Type,
            is UInt32.Type, is UInt16.Type, is UInt8.Type:
            return "a whole number"
        case is Double.Type, is Float.Type: return "a number"
        default: break
        }
        let name = String(describing: type)
        if name.hasPrefix("Array<") || name.hasPrefix("[") { return "a JSON array" }
        // Keyed containers report `Dictionary<String, Any>`; a Decodable struct is decoded from an object too.
        return "a JSON object"
    }

    private static func path(_ context: DecodingError.Context) -> String {
        let keys = context.codingPath.map { $0.intValue.map { "[\($0)]" } ?? $0.stringValue }
        return keys.isEmpty ? "" : " at \(keys.joined(separator: "."))"
    }
}
