/// One setting of `config.json`: its name, help, default, environment override, secrecy and the form (limits)
/// of its value — the mechanism; the keys themselves are declared beside the features that read them.
///
/// Keys are dotted (`api.url`, `iot.secret`). Secret keys are shown masked by `sclm config` and never
/// logged. A key with ``isStorable`` false can only come from its environment variable.
package struct ConfigKey: Sendable, Hashable, CustomStringConvertible {
    /// The dotted name, as used by `sclm config get|set`.
    package let name: String
    /// One sentence for `sclm config list --help` and docs/cli.md.
    package let help: String
    /// The value used when neither the environment nor the file sets one.
    package let defaultValue: String?
    /// The environment variable that overrides the file, if any.
    package let environmentVariable: String?
    /// Whether the value is a credential to be masked in output.
    package let isSecret: Bool
    /// Whether `sclm config set` may write it to `config.json`.
    package let isStorable: Bool
    /// The form of its value, checked when it is set and when it is read.
    package let format: ConfigValueFormat

    /// Declares a key.
    ///
    /// - Parameters:
    ///   - name: the dotted name.
    ///   - help: one sentence.
    ///   - defaultValue: the value used when nothing sets one.
    ///   - environment: the environment variable that overrides the file.
    ///   - secret: whether the value is masked in output.
    ///   - storable: whether `sclm config set` may write it.
    ///   - allowedValues: the only values the key takes (a ``ConfigValueFormat/choice(_:)``).
    ///   - format: the form of the value when it is not a choice (default: any text).
    package init(
        _ name: String, help: String, default defaultValue: String? = nil, environment: String? = nil,
        secret: Bool = false, storable: Bool = true, values allowedValues: [String]? = nil,
        format: ConfigValueFormat = .text
    ) {
        self.name = name
        self.help = help
        self.defaultValue = defaultValue
        self.environmentVariable = environment
        self.isSecret = secret
        self.isStorable = storable
        self.format = allowedValues.map { .choice($0) } ?? format
    }

    /// The only values the key takes, when it is a choice (`nil`: another form).
    package var allowedValues: [String]? {
        guard case .choice(let words, _) = format else { return nil }
        return words
    }

    package var description: String { name }

    /// What is wrong with `value`, which the key's ``format`` refuses, in the words every entry point uses —
    /// `sclm config set`, `config.json`, the environment and a command-line flag: "must be a whole number from
    /// 1 to 64, got '0'" (a secret's value is not repeated).
    package func refusal(of value: String) -> String {
        let shown = isSecret ? "" : ", got '\(URLPasswords.redacting(value))'"
        return "must be \(format.acceptedForm)\(shown)"
    }

    package static func == (lhs: ConfigKey, rhs: ConfigKey) -> Bool { lhs.name == rhs.name }
    package func hash(into hasher: inout Hasher) { hasher.combine(name) }
}
