extension KeyedDecodingContainer {
    /// The value for `key`, or `nil` when it is missing, `null` or of another type: optional StoryCLM
    /// fields vary between server versions, and one odd field must not make a whole listing unreadable.
    func lenient<T: Decodable>(_ key: Key, as type: T.Type = T.self) -> T? {
        (try? decodeIfPresent(T.self, forKey: key)) ?? nil
    }

    /// The value for `key`, or `fallback` when it is missing, `null` or of another type.
    func lenient<T: Decodable>(_ key: Key, default fallback: T) -> T {
        lenient(key, as: T.self) ?? fallback
    }

    /// The elements of the array at `key` that decode, or `[]` when it is missing or `null`.
    func lenientArray<T: Decodable>(_ key: Key, of type: T.Type = T.self) -> [T] {
        lenient(key, as: [Lenient<T>].self)?.compactMap(\.value) ?? []
    }
}

/// An element that decodes to `nil` instead of failing its array.
private struct Lenient<T: Decodable>: Decodable {
    let value: T?

    init(from decoder: any Decoder) throws {
        value = try? T(from: decoder)
    }
}
