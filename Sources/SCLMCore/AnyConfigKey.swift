/// One setting of `config.json` whatever its value's type: its name, help, default, environment override,
/// secrecy and the form (limits) of its value. What `sclm config`, the settings catalog, the man page and
/// docs/cli.md list; code reads a setting through its typed ``ConfigKey``, which carries one of these.
///
/// Keys are dotted (`api.url`, `iot.secret`). Secret keys are shown masked by `sclm config` and never
/// logged. A key with ``isStorable`` false can only come from its environment variable.
package struct AnyConfigKey: Sendable, Hashable, CustomStringConvertible {
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
    /// The canonical text of a value, or why the key's reader refuses it: the format, then what the typed key
    /// makes of the text (a network rule's entries, say), so `sclm config set` refuses what a read would.
    private let check: @Sendable (String) -> Result<String, ConfigRefusal>

    /// Describes a key (its typed ``ConfigKey`` declares it).
    ///
    /// - Parameters:
    ///   - name: the dotted name.
    ///   - help: one sentence.
    ///   - defaultValue: the value used when nothing sets one.
    ///   - environment: the environment variable that overrides the file.
    ///   - secret: whether the value is masked in output.
    ///   - storable: whether `sclm config set` may write it.
    ///   - format: the form of the value.
    ///   - check: the canonical text of a value, or why it is refused.
    init(
        _ name: String, help: String, default defaultValue: String?, environment: String?, secret: Bool,
        storable: Bool, format: ConfigValueFormat, check: @escaping @Sendable (String) -> Result<String, ConfigRefusal>
    ) {
        self.check = check
        self.name = name
        self.help = help
        self.defaultValue = defaultValue
        self.environmentVariable = environment
        self.isSecret = secret
        self.isStorable = storable
        self.format = format
    }

    /// The only values the key takes, when it is a choice (`nil`: another form).
    package var allowedValues: [String]? {
        guard case .choice(let words, _) = format else { return nil }
        return words
    }

    package var description: String { name }

    /// `text` in its canonical form, or why the key refuses it.
    package func canonical(_ text: String) -> Result<String, ConfigRefusal> { check(text) }

    package static func == (lhs: AnyConfigKey, rhs: AnyConfigKey) -> Bool { lhs.name == rhs.name }
    package func hash(into hasher: inout Hasher) { hasher.combine(name) }
}
