import SCLMCore

/// Typed, lenient access to the members of one JSON object of a backend answer.
///
/// A missing member and an explicit `null` both read as absent; a member of the wrong type is an error
/// naming it. `Required` accessors also fail when the member is absent.
struct ResponseFields {
    let members: [String: JSONValue]
    /// What the object is, for error messages ("version record").
    let what: String

    init(_ value: JSONValue, what: String) throws(ResponseError) {
        guard let members = value.objectValue else { throw ResponseError("\(what) is not a JSON object") }
        self.members = members
        self.what = what
    }

    func has(_ key: String) -> Bool { !(members[key] ?? .null).isNull }

    func int(_ key: String) throws(ResponseError) -> Int64? {
        guard let value = present(key) else { return nil }
        guard let number = value.intValue else { throw mismatch(key, "an integer") }
        return number
    }

    func requiredInt(_ key: String) throws(ResponseError) -> Int64 {
        guard let number = try int(key) else { throw missing(key) }
        return number
    }

    func string(_ key: String) throws(ResponseError) -> String? {
        guard let value = present(key) else { return nil }
        guard let text = value.stringValue else { throw mismatch(key, "a string") }
        return text
    }

    func bool(_ key: String) throws(ResponseError) -> Bool? {
        guard let value = present(key) else { return nil }
        guard let flag = value.boolValue else { throw mismatch(key, "true or false") }
        return flag
    }

    func strings(_ key: String) throws(ResponseError) -> [String]? {
        guard let value = present(key) else { return nil }
        guard let items = value.arrayValue else { throw mismatch(key, "an array of strings") }
        var result: [String] = []
        for item in items {
            guard let text = item.stringValue else { throw mismatch(key, "an array of strings") }
            result.append(text)
        }
        return result
    }

    /// A localized text: an object with at least one of `ca`/`es`/`en` (missing ones fall back to English,
    /// then Catalan, then Spanish), or a plain string used for every language.
    func text(_ key: String) throws(ResponseError) -> LocalizedText? {
        guard let value = present(key) else { return nil }
        if let text = value.stringValue { return LocalizedText(text) }
        guard let object = value.objectValue else { throw mismatch(key, "an object of ca/es/en texts") }
        var found: [Language: String] = [:]
        for language in Language.allCases {
            switch object[language.code] {
            case .string(let text)?: found[language] = text
            case nil, .null?: break
            default: throw mismatch("\(key).\(language.code)", "a string")
            }
        }
        guard let fallback = found[.en] ?? found[.ca] ?? found[.es] else {
            throw ResponseError("\(what): '\(key)' has none of the texts ca, es, en")
        }
        return LocalizedText(ca: found[.ca] ?? fallback, es: found[.es] ?? fallback, en: found[.en] ?? fallback)
    }

    func requiredText(_ key: String) throws(ResponseError) -> LocalizedText {
        guard let text = try text(key) else { throw missing(key) }
        return text
    }

    private func present(_ key: String) -> JSONValue? {
        guard let value = members[key], !value.isNull else { return nil }
        return value
    }

    private func missing(_ key: String) -> ResponseError {
        ResponseError("\(what) has no '\(key)'")
    }

    private func mismatch(_ key: String, _ expected: String) -> ResponseError {
        ResponseError("\(what): '\(key)' must be \(expected)")
    }
}
