import SCLMCore

/// A command of the `sclm` tree, shaped like swift-argument-parser's `ParsableCommand`.
///
/// A command declares its name, help and options in ``configuration``; ``CommandParser`` parses argv
/// against it and hands the result to ``init(parsing:)``. Group commands list ``CommandConfiguration/subcommands``
/// and, by default, print their help when run.
///
/// Implementations must: declare each option once as a ``CommandOption``, list it in
/// ``CommandConfiguration/options`` and read it in `init(parsing:)` through that descriptor (reading one not
/// listed asserts, see ``ParsedArguments``), throw ``ValidationError`` for bad
/// values (exit 64), write results to ``CommandContext/stdout`` and diagnostics to the logger.
package protocol Command: Sendable {
    /// Name, help and options.
    static var configuration: CommandConfiguration { get }
    /// Builds the command from parsed arguments.
    ///
    /// - Throws: ``ValidationError`` for missing or malformed values.
    init(parsing arguments: ParsedArguments) throws
    /// Checks values that depend on each other; runs before ``run(_:)``.
    ///
    /// - Throws: ``ValidationError``.
    func validate() throws
    /// Does the work.
    ///
    /// - Throws: any error; ``CommandRunner`` maps it to an exit code.
    func run(_ context: CommandContext) async throws
}

extension Command {
    package func validate() throws {}

    package func run(_ context: CommandContext) async throws {
        context.stdout.write(HelpFormatter.help(for: Self.self, path: context.commandPath))
    }
}

/// The static description of a command.
package struct CommandConfiguration: Sendable {
    /// The name typed on the command line (kebab case).
    package var commandName: String
    /// One sentence ending in a period.
    package var abstract: String
    /// Longer help shown below the abstract.
    package var discussion: String
    /// Positional arguments, for help and arity checks.
    package var arguments: [ArgumentSpec]
    /// Options and flags of this command (global options are added by the parser), from its declarations.
    package var options: [OptionSpec]
    /// Child commands.
    package var subcommands: [any Command.Type]

    /// Declares a command.
    package init(
        commandName: String, abstract: String, discussion: String = "", arguments: [ArgumentSpec] = [],
        options: [any OptionDeclaration] = [], subcommands: [any Command.Type] = []
    ) {
        self.commandName = commandName
        self.abstract = abstract
        self.discussion = discussion
        self.arguments = arguments
        self.options = options.map(\.spec)
        self.subcommands = subcommands
    }
}

/// A declared option of a command: what ``CommandConfiguration/options`` lists.
package protocol OptionDeclaration: Sendable {
    /// Names, placeholder, help and choices.
    var spec: OptionSpec { get }
}

/// The names, placeholder and help of a named option (`--jobs N`) or flag (`--strict`), as help, completions
/// and the man page show them; a command declares it through a typed ``CommandOption``.
package struct OptionSpec: Sendable, Equatable {
    /// All spellings, short first (`["-j", "--jobs"]`); the last is the canonical name.
    package let names: [String]
    /// The placeholder of the value (`N`, `ID|NAME`), or `nil` for a flag.
    package let valueName: String?
    /// One short sentence.
    package let help: String
    /// Whether the option may be given several times.
    package let isRepeatable: Bool
    /// Whether the command needs it (usage shows it without brackets).
    package var isRequired = false
    /// The only values it takes, when they are a fixed set (completions offer them).
    package var choices: [String]?

    /// Declares an option that takes a value (``CommandOption``'s factories build on it).
    ///
    /// - Parameters:
    ///   - names: all spellings, short first.
    ///   - value: the placeholder; with `choices` and no placeholder, the choices joined by `|`.
    ///   - help: one short sentence.
    ///   - repeatable: whether it may be given several times.
    ///   - required: whether the command needs it; the command still checks it, with its own hint.
    ///   - choices: the only values it takes, for completions.
    /// - Returns: the option.
    static func option(
        _ names: [String], value: String? = nil, help: String, repeatable: Bool = false, required: Bool = false,
        choices: [String]? = nil
    ) -> OptionSpec {
        var spec = OptionSpec(
            names: names, valueName: value ?? choices?.joined(separator: "|") ?? "value", help: help,
            isRepeatable: repeatable)
        spec.isRequired = required
        spec.choices = choices
        return spec
    }

    /// The name the option's values are kept under in ``ParsedArguments``.
    package var canonicalName: String { names.last ?? "" }
}

/// A positional argument.
package struct ArgumentSpec: Sendable, Equatable {
    /// The placeholder (`path`, `key`).
    package let name: String
    /// One short sentence.
    package let help: String
    /// Whether it may be left out.
    package let isOptional: Bool
    /// Whether it takes all remaining values.
    package let isRepeating: Bool
    /// The only values it takes, when they are a fixed set (completions offer them).
    package let choices: [String]?
    /// Whether it names a file or folder (completions offer paths).
    package let isPath: Bool
    /// The values it takes after a given word of the argument before it (`config set sync.contentPolicy`
    /// takes install or refuse), for completions; a word mapped to `[]` takes any value.
    package var choicesAfter: [String: [String]] = [:]

    /// Declares a positional argument.
    package init(
        _ name: String, help: String, optional: Bool = false, repeating: Bool = false, choices: [String]? = nil,
        path: Bool = false
    ) {
        self.name = name
        self.help = help
        self.isOptional = optional
        self.isRepeating = repeating
        self.choices = choices
        self.isPath = path
    }
}

extension ArgumentSpec {
    /// The `presentation-id` positional of `show` and `content path|delete`.
    package static let presentationId = ArgumentSpec(
        "presentation-id", help: "The presentation's id (see `sclm list`).")
}
