import Foundation
import SCLMCore

/// One option or flag of a command, declared once with how its given values read as `Value` — shaped like
/// swift-argument-parser's `@Option`/`@Flag`.
///
/// A command keeps each of its options as a `static let` of this type, lists them in
/// ``CommandConfiguration/options`` (from which help, completions, the man page and the docs/cli.md check
/// derive) and reads them in `init(parsing:)` with ``ParsedArguments/read(_:)``: there is no read by name,
/// so a misspelled option does not compile, and reading one the command does not list fails
/// `CommandOptionDeclarationTests` (and asserts in debug builds).
///
/// ```swift
/// static let jobs: CommandOption<Int?> = .integer("--jobs", value: "n", help: "Transfers at once.", in: 1...64)
/// jobs = try arguments.read(Self.jobs)
/// ```
package struct CommandOption<Value>: OptionDeclaration {
    /// Names, placeholder, help and choices, as help and completions show them.
    package let spec: OptionSpec
    /// Turns the values given for the option (in order; one empty string per time a flag is given) into
    /// its value.
    private let convert: @Sendable ([String]) throws -> Value

    /// Declares an option from its spec and its conversion.
    private init(_ spec: OptionSpec, convert: @escaping @Sendable ([String]) throws -> Value) {
        self.spec = spec
        self.convert = convert
    }

    /// The option's value, given the values given for it.
    ///
    /// - Throws: ``ValidationError`` for a malformed value.
    func value(given: [String]) throws -> Value { try convert(given) }

    /// The canonical name, as error messages show it.
    package var name: String { spec.canonicalName }

    /// Declares an option taking one value (the last one given wins when it is repeatable) converted by
    /// `convert`; absent, it reads `nil`.
    ///
    /// - Parameters:
    ///   - names: all spellings, short first.
    ///   - value: the placeholder; with `choices` and no placeholder, the choices joined by `|`.
    ///   - help: one short sentence.
    ///   - required: whether usage shows it without brackets (the command still checks it).
    ///   - choices: the only values it takes, for completions.
    ///   - convert: the value from its text; throws ``ValidationError`` for a bad one.
    /// - Returns: the option.
    package static func option<Wrapped>(
        _ names: String..., value: String? = nil, help: String, required: Bool = false, choices: [String]? = nil,
        convert: @escaping @Sendable (String) throws -> Wrapped
    ) -> Self where Value == Wrapped? {
        let spec = OptionSpec.option(names, value: value, help: help, required: required, choices: choices)
        return Self(spec) { given in try given.last.map(convert) }
    }

    /// Declares a repeatable option whose every value is converted by `convert`, in the order given.
    ///
    /// - Parameters:
    ///   - names: all spellings, short first.
    ///   - value: the placeholder.
    ///   - help: one short sentence.
    ///   - convert: each value from its text; throws ``ValidationError`` for a bad one.
    /// - Returns: the option.
    package static func repeated<Element>(
        _ names: String..., value: String, help: String, convert: @escaping @Sendable (String) throws -> Element
    ) -> Self where Value == [Element] {
        Self(OptionSpec.option(names, value: value, help: help, repeatable: true)) { given in try given.map(convert) }
    }
}

extension CommandOption where Value == Bool {
    /// Declares a flag: `true` when given (any number of times).
    package static func flag(_ names: String..., help: String) -> Self {
        Self(OptionSpec(names: names, valueName: nil, help: help, isRepeatable: true)) { !$0.isEmpty }
    }
}

extension CommandOption where Value == String? {
    /// Declares an option taking any text; absent, it reads `nil`.
    package static func text(_ names: String..., value: String, help: String) -> Self {
        Self(OptionSpec.option(names, value: value, help: help)) { $0.last }
    }

    /// Declares an option taking one of `choices` in any case; it reads the choice as declared, or `nil`.
    ///
    /// - Parameters:
    ///   - names: all spellings, short first.
    ///   - value: the placeholder (default: the choices joined by `|`).
    ///   - help: one short sentence.
    ///   - required: whether usage shows it without brackets (the command still checks it).
    ///   - choices: the values it takes; any other fails with a message listing them.
    /// - Returns: the option.
    package static func choice(
        _ names: String..., value: String? = nil, help: String, required: Bool = false, choices: [String]
    ) -> Self {
        let name = names.last ?? ""
        let spec = OptionSpec.option(names, value: value, help: help, required: required, choices: choices)
        return Self(spec) { given in
            try given.last.map { text in
                guard let match = choices.first(where: { $0.caseInsensitiveCompare(text) == .orderedSame }) else {
                    throw ValidationError("\(name) must be one of \(choices.joined(separator: ", ")), got '\(text)'")
                }
                return match
            }
        }
    }
}

extension CommandOption {
    /// Declares an option that gives setting `key`'s value for one run (`--jobs` for `sync.jobs`): the value
    /// is read by the key, so it is held to the key's limits and refused in the same words as by `sclm config
    /// set`, a hand-edited `config.json` or the environment; absent, it reads `nil`.
    ///
    /// - Parameters:
    ///   - key: the setting whose limits apply.
    ///   - names: all spellings, short first.
    ///   - value: the placeholder (default: the choices, `A|B`).
    ///   - help: one short sentence.
    ///   - choices: the values completions offer (default: the key's, when it is a choice).
    /// - Returns: the option.
    package static func setting<Setting>(
        _ key: ConfigKey<Setting>, _ names: String..., value: String? = nil, help: String, choices: [String]? = nil
    ) -> Self where Value == Setting? {
        let name = names.last ?? ""
        let spec = OptionSpec.option(names, value: value, help: help, choices: choices ?? key.any.allowedValues)
        return Self(spec) { given in
            try given.last.map { text in
                switch key.parse(text) {
                case .success(let value): return value
                case .failure(let refusal): throw ValidationError("\(name) \(refusal.reason) (as \(key.name))")
                }
            }
        }
    }
}

extension CommandOption where Value == [String] {
    /// Declares a repeatable option taking any text; it reads every value given, in order.
    package static func texts(_ names: String..., value: String, help: String) -> Self {
        Self(OptionSpec.option(names, value: value, help: help, repeatable: true)) { $0 }
    }
}

extension CommandOption where Value == Int? {
    /// Declares an option taking an integer in `range`; absent, it reads `nil`.
    package static func integer(
        _ names: String..., value: String, help: String, in range: ClosedRange<Int> = Int.min...Int.max
    ) -> Self {
        let name = names.last ?? ""
        return Self(OptionSpec.option(names, value: value, help: help)) { given in
            try given.last.map { try Self.parseInteger($0, named: name, in: range) }
        }
    }

    /// `text` as an integer in `range`.
    ///
    /// - Throws: ``ValidationError`` naming the option and the range.
    private static func parseInteger(_ text: String, named name: String, in range: ClosedRange<Int>) throws -> Int {
        guard let number = Int(text), range.contains(number) else {
            let bounds =
                range.upperBound == Int.max ? "at least \(range.lowerBound)" : "\(range.lowerBound)…\(range.upperBound)"
            throw ValidationError("\(name) needs an integer \(bounds), got '\(text)'")
        }
        return number
    }

    /// This option read as `defaultValue` when it is absent.
    package func defaulting(to defaultValue: Int) -> CommandOption<Int> {
        CommandOption<Int>(spec) { try self.convert($0) ?? defaultValue }
    }
}

extension CommandOption where Value == Int64 {
    /// Declares the required `--presentation <id>` of a command that opens one installed presentation;
    /// `purpose` says what for, in the error when it is missing.
    package static func presentation(purpose: String, help: String) -> Self {
        Self(OptionSpec.option(["--presentation"], value: "id", help: help, required: true)) { given in
            guard let text = given.last else {
                throw ValidationError(
                    "missing --presentation <id>: the installed presentation to \(purpose) (see `sclm list`)")
            }
            return try presentationId(text)
        }
    }

    /// `text` as a presentation id (a whole number above 0).
    ///
    /// - Throws: ``ValidationError`` naming `--presentation`.
    fileprivate static func presentationId(_ text: String) throws -> Int64 {
        guard let id = Int64(text), id > 0 else {
            throw ValidationError("--presentation needs a presentation id, got '\(text)'")
        }
        return id
    }
}

extension CommandOption where Value == Int64? {
    /// Declares an optional `--presentation <id>`, for a command that can open something else instead (the
    /// command checks that one of them is given); absent, it reads `nil`.
    package static func presentation(help: String) -> Self {
        .option("--presentation", value: "id", help: help, convert: CommandOption<Int64>.presentationId)
    }
}
