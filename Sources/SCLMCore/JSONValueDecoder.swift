/// Decodes a `Decodable` type straight from a parsed ``JSONValue``, without writing it back to JSON text
/// for `JSONDecoder` to parse again (a bridge request's `Data` is parsed once, with its envelope).
///
/// It follows `JSONDecoder`'s rules and errors — the same `DecodingError` cases and coding paths, so
/// ``JSONValue/describe(decodingError:)`` words a failure the same way: a whole number decodes into an
/// integer type only when it fits, a number with a fraction into a floating-point type only, `null` and
/// a missing key are `nil` for optionals. A ``JSONValue`` inside the type is taken as it is.
package enum JSONValueDecoder {
    /// `value` decoded as `T`.
    ///
    /// - Throws: `DecodingError` when `value` does not have `T`'s shape.
    package static func decode<T: Decodable>(_ type: T.Type = T.self, from value: JSONValue) throws -> T {
        try ValueDecoder(value, path: []).decodeValue(T.self)
    }
}

/// A decoder positioned at one value of the tree.
private struct ValueDecoder: Decoder {
    let value: JSONValue
    let codingPath: [any CodingKey]
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    init(_ value: JSONValue, path: [any CodingKey]) {
        self.value = value
        codingPath = path
    }

    func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
        guard case .object(let members) = value else { throw mismatch([String: JSONValue].self) }
        return KeyedDecodingContainer(KeyedContainer<Key>(members: members, codingPath: codingPath))
    }

    func unkeyedContainer() throws -> any UnkeyedDecodingContainer {
        guard case .array(let elements) = value else { throw mismatch([JSONValue].self) }
        return UnkeyedContainer(elements: elements, codingPath: codingPath)
    }

    func singleValueContainer() throws -> any SingleValueDecodingContainer { SingleContainer(decoder: self) }

    /// The value as `T`: the scalars by JSON's rules, a ``JSONValue`` as it is, anything else by its own
    /// `init(from:)`.
    func decodeValue<T: Decodable>(_ type: T.Type) throws -> T {
        if T.self == JSONValue.self, let value = value as? T { return value }
        if case .null = value, !(T.self is any ExpressibleByNilLiteral.Type) {
            throw DecodingError.valueNotFound(
                T.self, DecodingError.Context(codingPath: codingPath, debugDescription: "found null"))
        }
        let scalar: Any?
        switch T.self {
        case is String.Type: scalar = value.stringValue
        case is Bool.Type: scalar = value.boolValue
        case is Double.Type: scalar = value.doubleValue
        case is Float.Type: scalar = value.doubleValue.map { Float($0) }
        case let integer as any FixedWidthInteger.Type: scalar = try whole(integer)
        default: return try T(from: self)
        }
        guard let typed = scalar as? T else { throw mismatch(T.self) }
        return typed
    }

    /// The number as `type`, when it is whole and fits.
    private func whole<I: FixedWidthInteger>(_ type: I.Type) throws -> I {
        let converted: I?
        switch value {
        case .int(let number): converted = I(exactly: number)
        case .double(let number): converted = I(exactly: number)
        default: throw mismatch(type)
        }
        guard let converted else {
            throw DecodingError.dataCorrupted(
                DecodingError.Context(
                    codingPath: codingPath, debugDescription: "the number \(value.jsonString) does not fit in \(type)"))
        }
        return converted
    }

    func mismatch(_ type: Any.Type) -> DecodingError {
        DecodingError.typeMismatch(
            type, DecodingError.Context(codingPath: codingPath, debugDescription: "found \(value.kindName)"))
    }
}

/// An object's members by key.
private struct KeyedContainer<Key: CodingKey>: KeyedDecodingContainerProtocol {
    let members: [String: JSONValue]
    let codingPath: [any CodingKey]

    var allKeys: [Key] { members.keys.compactMap { Key(stringValue: $0) } }

    func contains(_ key: Key) -> Bool { members[key.stringValue] != nil }

    func decodeNil(forKey key: Key) throws -> Bool {
        guard let member = members[key.stringValue] else { throw missing(key) }
        return member == .null
    }

    func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T {
        try decoder(for: key).decodeValue(T.self)
    }

    func decodeIfPresent<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T? {
        guard let member = members[key.stringValue], member != .null else { return nil }
        return try ValueDecoder(member, path: codingPath + [key]).decodeValue(T.self)
    }

    func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type, forKey key: Key) throws
        -> KeyedDecodingContainer<NestedKey>
    {
        try decoder(for: key).container(keyedBy: type)
    }

    func nestedUnkeyedContainer(forKey key: Key) throws -> any UnkeyedDecodingContainer {
        try decoder(for: key).unkeyedContainer()
    }

    func superDecoder() throws -> any Decoder { ValueDecoder(.object(members), path: codingPath) }

    func superDecoder(forKey key: Key) throws -> any Decoder {
        ValueDecoder(members[key.stringValue] ?? .null, path: codingPath + [key])
    }

    private func decoder(for key: Key) throws -> ValueDecoder {
        guard let member = members[key.stringValue] else { throw missing(key) }
        return ValueDecoder(member, path: codingPath + [key])
    }

    private func missing(_ key: Key) -> DecodingError {
        DecodingError.keyNotFound(
            key, DecodingError.Context(codingPath: codingPath, debugDescription: "no member '\(key.stringValue)'"))
    }
}

/// An array's elements in order.
private struct UnkeyedContainer: UnkeyedDecodingContainer {
    let elements: [JSONValue]
    let codingPath: [any CodingKey]
    private(set) var currentIndex = 0

    init(elements: [JSONValue], codingPath: [any CodingKey]) {
        self.elements = elements
        self.codingPath = codingPath
    }

    var count: Int? { elements.count }
    var isAtEnd: Bool { currentIndex >= elements.count }

    mutating func decodeNil() throws -> Bool {
        guard try peek() == .null else { return false }
        currentIndex += 1
        return true
    }

    mutating func decode<T: Decodable>(_ type: T.Type) throws -> T {
        let decoded = try ValueDecoder(try peek(), path: elementPath).decodeValue(T.self)
        currentIndex += 1
        return decoded
    }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type) throws
        -> KeyedDecodingContainer<NestedKey>
    {
        let container = try ValueDecoder(try peek(), path: elementPath).container(keyedBy: type)
        currentIndex += 1
        return container
    }

    mutating func nestedUnkeyedContainer() throws -> any UnkeyedDecodingContainer {
        let container = try ValueDecoder(try peek(), path: elementPath).unkeyedContainer()
        currentIndex += 1
        return container
    }

    mutating func superDecoder() throws -> any Decoder {
        let decoder = ValueDecoder(try peek(), path: elementPath)
        currentIndex += 1
        return decoder
    }

    private var elementPath: [any CodingKey] { codingPath + [IndexKey(intValue: currentIndex)] }

    private func peek() throws -> JSONValue {
        guard !isAtEnd else {
            throw DecodingError.valueNotFound(
                JSONValue.self,
                DecodingError.Context(codingPath: elementPath, debugDescription: "the array has no more elements"))
        }
        return elements[currentIndex]
    }
}

/// One value.
private struct SingleContainer: SingleValueDecodingContainer {
    let decoder: ValueDecoder
    var codingPath: [any CodingKey] { decoder.codingPath }

    func decodeNil() -> Bool { decoder.value == .null }

    func decode<T: Decodable>(_ type: T.Type) throws -> T { try decoder.decodeValue(T.self) }
}

/// An array index as a coding key.
private struct IndexKey: CodingKey {
    let intValue: Int?
    var stringValue: String { "Index \(intValue ?? 0)" }

    init(intValue: Int) { self.intValue = intValue }
    init?(stringValue: String) { nil }
}

extension JSONValue {
    /// The value's JSON kind in words, for a mismatch's description.
    fileprivate var kindName: String {
        switch self {
        case .null: "null"
        case .bool: "true or false"
        case .int, .double: "a number"
        case .string: "a string"
        case .array: "an array"
        case .object: "an object"
        }
    }
}
