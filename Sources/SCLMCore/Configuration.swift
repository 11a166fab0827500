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

    /// The effective value of `key` — environment, then (for a secret key) a credential file, then
    /// `config.json`, then the default — checked against the key's form and limits.
    ///
    /// - Throws: `SCLMError` (`.usage`) naming the accepted form and where to fix it, in the words of every
    ///   other entry point (`sclm config set`, a command-line flag).
    package func value<Value>(_ key: ConfigKey<Value>) throws -> Value? {
        let (text, source) = resolved(key.any)
        guard let text else { return nil }
        switch key.parse(text) {
        case .success(let value): return value
        case .failure(let refusal): throw Configuration.refused(key.any, refusal, from: source)
        }
    }

    /// The effective value of `key`, which must be set (or have a default).
    ///
    /// - Throws: `SCLMError` (`.usage`) for a value the key refuses (``value(_:)``), or one that is not set.
    package func required<Value>(_ key: ConfigKey<Value>) throws -> Value {
        guard let value = try value(key) else {
            throw SCLMError(
                .usage,
                "\(key.name) is not set; set it with `sclm config set \(key.name) \(key.any.format.placeholder)`")
        }
        return value
    }

    /// The effective text of `key` and where it came from, unchecked: for showing it (``display(_:for:)``).
    package func resolved(_ key: AnyConfigKey) -> (value: String?, source: ConfigSource) {
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
    private func credential(_ key: AnyConfigKey) -> String? {
        guard key.isSecret, let folder = environment["CREDENTIALS_DIRECTORY"], folder.hasPrefix("/"),
            let data = FileManager.default.contents(atPath: folder + "/" + key.name),
            let text = String(data: data, encoding: .utf8)
        else { return nil }
        let value = text.trimmingCharacters(in: .newlines)
        return value.isEmpty ? nil : value
    }

    /// Stores `value` for `key` (or removes it for `nil`), in its canonical form.
    ///
    /// - Throws: `SCLMError` (`.usage`) for a key that may not be stored, or a value the key does not allow.
    package mutating func set(_ key: AnyConfigKey, to value: String?) throws {
        guard key.isStorable else {
            throw SCLMError(
                .usage,
                "\(key.name) is never stored on disk; set \(key.environmentVariable ?? "it") in the environment instead"
            )
        }
        stored[key.name] = try value.map { value in
            switch key.canonical(value) {
            case .success(let canonical): return canonical
            case .failure(let refusal): throw Configuration.refused(key, refusal, from: .file)
            }
        }
    }

    /// The error for `key`'s value from `source`, which the key refused: what it accepts and where to fix it.
    private static func refused(_ key: AnyConfigKey, _ refusal: ConfigRefusal, from source: ConfigSource) -> SCLMError {
        let fix =
            switch source {
            case .environment: "fix \(key.environmentVariable ?? key.name) in the environment"
            case .credential: "fix the credential file \(key.name) in $CREDENTIALS_DIRECTORY"
            default: "fix it with `sclm config set \(key.name) \(key.format.placeholder)`"
            }
        return SCLMError(.usage, "\(key.name) \(refusal.reason); \(fix)")
    }

    /// `value` as shown to a user: secrets masked, the password of any URL in another value masked.
    package static func display(_ value: String?, for key: AnyConfigKey) -> String {
        guard let value else { return "(unset)" }
        guard key.isSecret else { return URLPasswords.redacting(value) }
        return value.isEmpty ? "" : "********"
    }
}
