import Foundation

/// Everything OSAM persists for one app (package), as the string dictionary callers store.
///
/// Values live under OSAM's own key names (``OSAMKey``), so the state maps one to one onto a
/// `preferences` scope (`osam:<package>`). Booleans are `true`/`false`, numbers decimal, lists JSON.
/// Absent keys read as OSAM's defaults; keys this type does not know are kept untouched.
///
/// ```swift
/// var state = OSAMState(try db.preferences(scope: "osam:cat.bcn.app"))
/// let decision = VersionControlPolicy.decide(input, state: state)
/// for (key, value) in decision.state.changes(since: state) { try db.setPreference(scope: …, key: key, value: value) }
/// ```
package struct OSAMState: Sendable, Equatable {
    /// The persisted form: key name → value.
    package private(set) var values: [String: String]

    /// Creates a state from persisted values (empty for a fresh install).
    package init(_ values: [String: String] = [:]) {
        self.values = values
    }

    /// The keys whose value differs from `old`, with the new value (`nil` = remove the key).
    package func changes(since old: OSAMState) -> [String: String?] {
        var result: [String: String?] = [:]
        for key in Set(values.keys).union(old.values.keys) where values[key] != old.values[key] {
            result[key] = .some(values[key])
        }
        return result
    }

    // MARK: - Typed access

    /// The raw value of `key`.
    package subscript(key: OSAMKey) -> String? {
        get { values[key.rawValue] }
        set { values[key.rawValue] = newValue }
    }

    func bool(_ key: OSAMKey, default fallback: Bool) -> Bool {
        switch self[key]?.lowercased() {
        case "true", "1": true
        case "false", "0": false
        default: fallback
        }
    }

    mutating func set(_ key: OSAMKey, _ flag: Bool) {
        self[key] = flag ? "true" : "false"
    }

    func int(_ key: OSAMKey, default fallback: Int64) -> Int64 {
        self[key].flatMap { Int64($0) } ?? fallback
    }

    mutating func set(_ key: OSAMKey, _ number: Int64) {
        self[key] = String(number)
    }

    func string(_ key: OSAMKey) -> String {
        self[key] ?? ""
    }

    func text(_ key: OSAMKey, default fallback: LocalizedText) -> LocalizedText {
        var text = fallback
        for language in Language.allCases {
            if let value = values[key.localized(language)] { text[language] = value }
        }
        return text
    }

    mutating func set(_ key: OSAMKey, _ text: LocalizedText) {
        for language in Language.allCases { values[key.localized(language)] = text[language] }
    }

    func decoded<T: Decodable>(_ key: OSAMKey, as type: T.Type) -> T? {
        guard let text = self[key] else { return nil }
        return try? JSONDecoder().decode(T.self, from: Data(text.utf8))
    }

    mutating func setEncoded(_ key: OSAMKey, _ value: (some Encodable)?) {
        guard let value else {
            self[key] = nil
            return
        }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        self[key] = (try? encoder.encode(value)).map { String(decoding: $0, as: UTF8.self) }
    }
}
