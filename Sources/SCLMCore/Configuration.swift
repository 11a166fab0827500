import Foundation

/// Where a configuration value came from.
package enum ConfigSource: String, Sendable, Codable {
    /// A file `$CREDENTIALS_DIRECTORY/<key>` (systemd's `LoadCredential=`), for secret keys only.
    case credential
    case environment, file, `default`, unset
}

/// The settings of one home: `config.json` overlaid by environment variables (docs/cli.md).
///
/// `config.json` is a flat JSON object of dotted keys to string values, written atomically with mode 0600.
package struct Configuration: Sendable, Equatable {
    /// The values stored in the file.
    package private(set) var stored: [String: String]
    /// The process environment used for overrides.
    package let environment: [String: String]

    /// Creates a configuration from stored values and an environment.
    package init(stored: [String: String] = [:], environment: [String: String] = [:]) {
        self.stored = stored
        self.environment = environment
    }

    /// Reads `config.json` at `path`; a missing file is an empty configuration.
    ///
    /// - Throws: `SCLMError` (`.storage`) for an unreadable file, (`.usage`) for malformed JSON.
    package static func load(from path: String, environment: [String: String]) throws -> Configuration {
        guard FileSystem.exists(path) else { return Configuration(environment: environment) }
        let data: Data
        do {
            data = try Data(contentsOf: URL(fileURLWithPath: path))
        } catch {
            throw SCLMError(.storage, "cannot read \(path): \(error.localizedDescription)")
        }
        return try parse(data, path: path, environment: environment)
    }

    /// Reads the contents of a `config.json` (`path` names it in errors): a pure function of bytes, which the
    /// fuzz target calls.
    ///
    /// - Throws: `SCLMError` (`.usage`) for malformed JSON or a setting that is not a string.
    package static func parse(_ data: Data, path: String, environment: [String: String]) throws -> Configuration {
        guard case .object(let members) = try? JSONValue.parse(data) else {
            throw SCLMError(.usage, "\(path) is not a JSON object of settings; fix or delete it")
        }
        var stored: [String: String] = [:]
        for (key, value) in members {
            switch value {
            case .string(let text): stored[key] = text
            case .int(let number): stored[key] = String(number)
            case .double(let number): stored[key] = String(number)
            case .bool(let flag): stored[key] = String(flag)
            default: throw SCLMError(.usage, "\(path): setting '\(key)' must be a string; fix or delete it")
            }
        }
        return Configuration(stored: stored, environment: environment)
    }

    /// Writes the stored values to `path` atomically with mode 0600.
    ///
    /// - Throws: `SCLMError` (`.storage`).
    package func save(to path: String) throws {
        let object = JSONValue.object(stored.mapValues { .string($0) })
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        let data = (try? encoder.encode(object)) ?? Data("{}".utf8)
        try FileSystem.writeAtomically(data + Data("\n".utf8), to: path, mode: 0o600)
    }

    /// The effective value of `key`: environment, then file, then default.
    package func value(_ key: ConfigKey) -> String? {
        resolved(key).value
    }

    /// The effective value of `key` and where it came from: environment, then (for a secret key) a credential
    /// file, then `config.json`, then the default.
    package func resolved(_ key: ConfigKey) -> (value: String?, source: ConfigSource) {
        if let variable = key.environmentVariable, let value = environment[variable], !value.isEmpty {
            return (value, .environment)
        }
        if let value = credential(key) { return (value, .credential) }
        if key.isStorable, let value = stored[key.name] { return (value, .file) }
        if let value = key.defaultValue { return (value, .default) }
        return (nil, .unset)
    }

    /// The secret `key`'s value from `$CREDENTIALS_DIRECTORY/<key name>` (the folder systemd fills from a
    /// unit's `LoadCredential=`), without the line breaks around it; `nil` for another key or no such file.
    private func credential(_ key: ConfigKey) -> String? {
        guard key.isSecret, let folder = environment["CREDENTIALS_DIRECTORY"], folder.hasPrefix("/"),
            let data = FileManager.default.contents(atPath: folder + "/" + key.name),
            let text = String(data: data, encoding: .utf8)
        else { return nil }
        let value = text.trimmingCharacters(in: .newlines)
        return value.isEmpty ? nil : value
    }

    /// The effective value of `key`, which must be one of its ``ConfigKey/allowedValues`` (when it has any),
    /// in the spelling the key lists.
    ///
    /// - Throws: `SCLMError` (`.usage`) naming the allowed values, for a value that is not one of them.
    package func choice(_ key: ConfigKey) throws -> String? {
        try checked(key)
    }

    /// The effective value of a ``ConfigValueFormat/wholeNumber(atLeast:)`` key.
    ///
    /// - Throws: `SCLMError` (`.usage`) naming the accepted form, for a value that is not one.
    package func wholeNumber(_ key: ConfigKey) throws -> Int? {
        try checked(key).flatMap { Int($0) }
    }

    /// The effective value of `key` in its canonical form, checked against the key's ``ConfigKey/format``.
    ///
    /// - Throws: `SCLMError` (`.usage`) naming the accepted form and where to fix it.
    package func checked(_ key: ConfigKey) throws -> String? {
        let (value, source) = resolved(key)
        guard let value else { return nil }
        return try Configuration.checked(value, for: key, from: source)
    }

    /// Stores `value` for `key` (or removes it for `nil`).
    ///
    /// - Throws: `SCLMError` (`.usage`) for a key that may not be stored, or a value the key does not allow.
    package mutating func set(_ key: ConfigKey, to value: String?) throws {
        guard key.isStorable else {
            throw SCLMError(
                .usage,
                "\(key.name) is never stored on disk; set \(key.environmentVariable ?? "it") in the environment instead"
            )
        }
        stored[key.name] = try value.map { try Configuration.checked($0, for: key, from: .file) }
    }

    /// `value` in the key's canonical form, or an error saying what the key accepts and where to fix it.
    private static func checked(_ value: String, for key: ConfigKey, from source: ConfigSource) throws -> String {
        if let normalized = key.format.normalized(value) { return normalized }
        let fix =
            switch source {
            case .environment: "fix \(key.environmentVariable ?? key.name) in the environment"
            case .credential: "fix the credential file \(key.name) in $CREDENTIALS_DIRECTORY"
            default: "fix it with `sclm config set \(key.name) \(key.format.placeholder)`"
            }
        throw SCLMError(.usage, "\(key.name) \(key.refusal(of: value)); \(fix)")
    }

    /// `value` as shown to a user: secrets masked, the password of any URL in another value masked.
    package static func display(_ value: String?, for key: ConfigKey) -> String {
        guard let value else { return "(unset)" }
        guard key.isSecret else { return URLPasswords.redacting(value) }
        return value.isEmpty ? "" : "********"
    }
}
