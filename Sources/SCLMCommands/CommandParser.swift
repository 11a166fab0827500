/// The command chosen from argv, with its arguments and the global options.
package struct Invocation: Sendable {
    /// The command type to run.
    package let command: any Command.Type
    /// The command names from the root, e.g. `["sclm", "config", "set"]`.
    package let path: [String]
    /// The command's own arguments.
    package let arguments: ParsedArguments
    /// `--home`, `--json`, `-v`, `-q`.
    package let globals: GlobalOptions
}

/// Parses argv against a command tree: subcommand names, options (`--x v`, `--x=v`), flags, positionals
/// and global options anywhere before `--`.
package struct CommandParser: Sendable {
    /// The root command.
    package let root: any Command.Type

    /// Creates a parser for the tree under `root`.
    package init(root: any Command.Type) { self.root = root }

    /// A usage error that happened while parsing, with the command it concerns.
    package struct Failure: Error {
        /// The command whose usage to print.
        package let path: [String]
        /// What is wrong.
        package let error: ValidationError
    }

    /// Whether `argv` asks for `--json` (before any `--`), for reporting a command line that does not parse.
    package static func asksForJSON(_ argv: [String]) -> Bool {
        argv.prefix { $0 != "--" }.contains("--json")
    }

    /// Parses `argv` (without the program name).
    ///
    /// - Throws: ``CleanExit`` for help and version, ``Failure`` for usage errors.
    package func parse(_ argv: [String]) throws -> Invocation {
        var state = State(command: root, path: [root.configuration.commandName])
        if let index = Self.firstWord(of: argv), argv[index] == "help" {
            return try helpInvocation(Array(argv[(index + 1)...]))
        }
        do {
            try state.consume(argv)
        } catch let error as ValidationError {
            throw Failure(path: state.path, error: error)
        }
        state.arguments.declare(state.command.configuration.options)
        if state.wantsVersion { throw CleanExit.version }
        if state.wantsHelp { throw CleanExit.helpRequested(path: state.path) }
        do {
            try Self.checkArity(state.arguments.positionals, of: state.command)
        } catch let error as ValidationError {
            throw Failure(path: state.path, error: error)
        }
        return Invocation(command: state.command, path: state.path, arguments: state.arguments, globals: state.globals)
    }

    /// Finds the command at `path` (names after the root).
    package func command(at path: [String]) -> (any Command.Type)? {
        var current = root
        for name in path.dropFirst() {
            guard let next = current.configuration.subcommands.first(where: { $0.configuration.commandName == name })
            else { return nil }
            current = next
        }
        return current
    }

    private func helpInvocation(_ names: [String]) throws -> Invocation {
        let path = [root.configuration.commandName] + names.filter { !$0.hasPrefix("-") }
        guard command(at: path) != nil else {
            throw Failure(path: [root.configuration.commandName], error: unknownCommand(path))
        }
        throw CleanExit.helpRequested(path: path)
    }

    /// The error for a `help` path that names no command, suggesting the nearest name at the first wrong step.
    private func unknownCommand(_ path: [String]) -> ValidationError {
        var current = root
        var message = "unknown command '\(path.dropFirst().joined(separator: " "))'"
        for name in path.dropFirst() {
            let names = current.configuration.subcommands.map { $0.configuration.commandName }
            guard let next = current.configuration.subcommands.first(where: { $0.configuration.commandName == name })
            else {
                message = NearestName.message(message, typed: name, candidates: names)
                break
            }
            current = next
        }
        return ValidationError(message)
    }

    /// The index of the first word that is not an option or the value of `--home`.
    private static func firstWord(of argv: [String]) -> Int? {
        var index = 0
        while index < argv.count {
            if GlobalOptions.home.spec.names.contains(argv[index]) {
                index += 2
            } else if argv[index].hasPrefix("-") {
                index += 1
            } else {
                return index
            }
        }
        return nil
    }

    private static func checkArity(_ positionals: [String], of command: any Command.Type) throws {
        let specs = command.configuration.arguments
        let required = specs.filter { !$0.isOptional }.count
        if positionals.count < required {
            let missing = specs.filter { !$0.isOptional }[positionals.count]
            throw ValidationError("missing <\(missing.name)>")
        }
        if !specs.contains(where: \.isRepeating), positionals.count > specs.count {
            throw ValidationError("unexpected argument '\(positionals[specs.count])'")
        }
    }

    private struct State {
        var command: any Command.Type
        var path: [String]
        var arguments = ParsedArguments()
        var globals = GlobalOptions()
        var wantsHelp = false
        var wantsVersion = false

        mutating func consume(_ argv: [String]) throws {
            var index = 0
            var onlyPositionals = false
            while index < argv.count {
                let token = argv[index]
                index += 1
                if onlyPositionals || token == "-" || !token.hasPrefix("-") || Self.isNumber(token) {
                    try positional(token)
                } else if token == "--" {
                    onlyPositionals = true
                } else {
                    try option(token, argv: argv, index: &index)
                }
            }
        }

        private mutating func positional(_ token: String) throws {
            let subcommands = command.configuration.subcommands
            if arguments.positionals.isEmpty, !subcommands.isEmpty {
                guard let next = subcommands.first(where: { $0.configuration.commandName == token }) else {
                    let names = subcommands.map { $0.configuration.commandName }
                    throw ValidationError(
                        NearestName.message("unknown command '\(token)'", typed: token, candidates: names))
                }
                command = next
                path.append(token)
                return
            }
            arguments.positionals.append(token)
        }

        private mutating func option(_ token: String, argv: [String], index: inout Int) throws {
            let (name, inline) = Self.split(token)
            if try global(name, inline: inline, argv: argv, index: &index) { return }
            guard let spec = command.configuration.options.first(where: { $0.names.contains(name) }) else {
                let names = (command.configuration.options + GlobalOptions.specs).flatMap(\.names).filter {
                    $0.hasPrefix("--")
                }
                throw ValidationError(NearestName.message("unknown option '\(name)'", typed: name, candidates: names))
            }
            guard spec.valueName != nil else {
                if inline != nil { throw ValidationError("flag '\(name)' does not take a value") }
                arguments.add("", for: spec)
                return
            }
            let value = try Self.value(for: name, inline: inline, argv: argv, index: &index)
            if !spec.isRepeatable, arguments.contains(spec) {
                throw ValidationError("option '\(name)' may only be given once")
            }
            arguments.add(value, for: spec)
        }

        private mutating func global(_ name: String, inline: String?, argv: [String], index: inout Int) throws -> Bool {
            let named = { (option: any OptionDeclaration) in option.spec.names.contains(name) }
            if named(GlobalOptions.home) {
                globals.home = try Self.value(for: name, inline: inline, argv: argv, index: &index)
            } else if named(GlobalOptions.json) {
                globals.json = true
            } else if named(GlobalOptions.verbose) {
                globals.verbose = true
            } else if named(GlobalOptions.quiet) {
                globals.quiet = true
            } else if named(GlobalOptions.help) {
                wantsHelp = true
            } else if named(GlobalOptions.version),
                !command.configuration.options.contains(where: { $0.names.contains(name) })
            {
                wantsVersion = true
            } else {
                return false
            }
            return true
        }

        /// Whether `token` is a number such as `-5` or `-0.5`: a value, never an option.
        static func isNumber(_ token: String) -> Bool {
            Double(token) != nil && token.dropFirst().allSatisfy { $0.isNumber || $0 == "." }
        }

        private static func split(_ token: String) -> (String, String?) {
            guard token.hasPrefix("--"), let equals = token.firstIndex(of: "=") else { return (token, nil) }
            return (String(token[..<equals]), String(token[token.index(after: equals)...]))
        }

        private static func value(for name: String, inline: String?, argv: [String], index: inout Int) throws -> String
        {
            if let inline { return inline }
            guard index < argv.count else { throw ValidationError("option '\(name)' needs a value") }
            defer { index += 1 }
            return argv[index]
        }
    }
}
