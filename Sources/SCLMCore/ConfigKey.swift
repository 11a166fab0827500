import Foundation

/// One setting, typed: its description (``AnyConfigKey``: name, help, default, environment variable,
/// secrecy, the form and limits of its value) and how its checked text becomes a `Value`.
///
/// Keys are declared once, beside the feature that reads them, in an extension constrained to their value's
/// type (`extension ConfigKey where Value == Int { static let syncJobs = ConfigKey(…, range: 1...64) }`), and
/// read through ``Configuration/value(_:)``, which checks the form at every entry point — `config.json`, the
/// environment, a credential file — with the same words `sclm config set` and a command-line flag use. The
/// raw text is read only to be shown (``Configuration/resolved(_:)``).
package struct ConfigKey<Value: Sendable>: Sendable {
    /// The key's description.
    package let any: AnyConfigKey
    /// The value of text the key's format accepted, in its canonical form, or why it is refused.
    private let decode: @Sendable (String) -> Result<Value, ConfigRefusal>

    /// Declares a key.
    ///
    /// - Parameters:
    ///   - name: the dotted name.
    ///   - help: one sentence.
    ///   - defaultValue: the text used when nothing sets one.
    ///   - environment: the environment variable that overrides the file.
    ///   - secret: whether the value is masked in output.
    ///   - storable: whether `sclm config set` may write it.
    ///   - format: the form of the value's text.
    ///   - decode: the value of canonical text of that form, or why it is refused.
    package init(
        _ name: String, help: String, default defaultValue: String?, environment: String?, secret: Bool = false,
        storable: Bool = true, format: ConfigValueFormat,
        decode: @escaping @Sendable (String) -> Result<Value, ConfigRefusal>
    ) {
        let check = Self.parser(format: format, secret: secret, decode: decode)
        any = AnyConfigKey(
            name, help: help, default: defaultValue, environment: environment, secret: secret, storable: storable,
            format: format, check: { text in check(text).map { $0.canonical } })
        self.decode = { text in check(text).map(\.value) }
    }

    /// Declares a key whose canonical text `decode` always turns into a value.
    package init(
        _ name: String, help: String, default defaultValue: String?, environment: String?, secret: Bool = false,
        storable: Bool = true, format: ConfigValueFormat, decode: @escaping @Sendable (String) -> Value?
    ) {
        self.init(
            name, help: help, default: defaultValue, environment: environment, secret: secret, storable: storable,
            format: format
        ) { text in
            decode(text).map { .success($0) } ?? .failure(format.refusal(of: text, secret: secret))
        }
    }

    /// The dotted name.
    package var name: String { any.name }

    /// The value of `text`, or what is wrong with it in the words every entry point uses
    /// (``ConfigValueFormat/refusal(of:secret:)``, or the reader's own).
    package func parse(_ text: String) -> Result<Value, ConfigRefusal> { decode(text) }

    /// The check of text: the format, then `decode` of its canonical form.
    private static func parser(
        format: ConfigValueFormat, secret: Bool, decode: @escaping @Sendable (String) -> Result<Value, ConfigRefusal>
    ) -> @Sendable (String) -> Result<(canonical: String, value: Value), ConfigRefusal> {
        { text in
            guard let canonical = format.normalized(text) else {
                return .failure(format.refusal(of: text, secret: secret))
            }
            return decode(canonical).map { (canonical, $0) }
        }
    }
}

/// Why a setting's text was refused, e.g. "must be a whole number from 1 to 64, got '0'".
package struct ConfigRefusal: Error, Sendable, Equatable {
    /// The refusal, without the key's name.
    package let reason: String

    /// A refusal for `reason`.
    package init(reason: String) {
        self.reason = reason
    }
}

extension ConfigKey where Value == String {
    /// Declares a key whose value is text of `format` (any text, or a proxy URL without credentials).
    package init(
        _ name: String, help: String, default defaultValue: String? = nil, environment: String? = nil,
        secret: Bool = false, storable: Bool = true, format: ConfigValueFormat = .text
    ) {
        self.init(
            name, help: help, default: defaultValue, environment: environment, secret: secret, storable: storable,
            format: format, decode: { $0 })
    }
}

extension ConfigKey where Value == URL {
    /// Declares a key whose value is an `http://` or `https://` URL with a host.
    package init(_ name: String, help: String, default defaultValue: String? = nil, environment: String? = nil) {
        self.init(
            name, help: help, default: defaultValue, environment: environment, format: .httpURL,
            decode: { URL(string: $0) })
    }
}

extension ConfigKey where Value == Int {
    /// Declares a key whose value is a whole number within `range`.
    package init(
        _ name: String, help: String, default defaultValue: Int? = nil, environment: String? = nil,
        range: ClosedRange<Int>
    ) {
        self.init(
            name, help: help, default: defaultValue.map(String.init), environment: environment,
            format: .wholeNumber(atLeast: range.lowerBound, atMost: range.upperBound), decode: { Int($0) })
    }

    /// Declares a key whose value is a whole number of at least `minimum`.
    package init(
        _ name: String, help: String, default defaultValue: Int? = nil, environment: String? = nil,
        atLeast minimum: Int
    ) {
        self.init(name, help: help, default: defaultValue, environment: environment, range: minimum...Int.max)
    }
}

extension ConfigKey where Value == Double {
    /// Declares a key whose value is a decimal number within `range`.
    package init(_ name: String, help: String, range: ClosedRange<Double>) {
        self.init(name, help: help, default: nil, environment: nil, format: .decimal(range), decode: { Double($0) })
    }
}

extension ConfigKey where Value == Bool {
    /// Declares a key whose value is `true` or `false`.
    package init(_ name: String, help: String, default defaultValue: Bool) {
        self.init(
            name, help: help, default: String(defaultValue), environment: nil, format: .choice(["true", "false"]),
            decode: { $0 == "true" })
    }
}

extension ConfigKey where Value: RawRepresentable & CaseIterable, Value.RawValue == String {
    /// Declares a key whose value is one of `cases` (by default all, in their order), by its raw value (in any
    /// case when `ignoringCase`).
    package init(
        _ name: String, help: String, default defaultValue: Value? = nil, cases: [Value] = Array(Value.allCases),
        ignoringCase: Bool = false
    ) {
        self.init(
            name, help: help, default: defaultValue?.rawValue, environment: nil,
            format: .choice(cases.map(\.rawValue), ignoringCase: ignoringCase), decode: { Value(rawValue: $0) })
    }
}
