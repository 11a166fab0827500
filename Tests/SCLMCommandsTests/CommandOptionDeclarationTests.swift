import SCLMCommands
import SCLMTestSupport
import Synchronization
import Testing

/// Every option a command reads is one its configuration declares (help, completions, the man page and
/// docs/cli.md come from the declarations): a typo or a forgotten declaration would read `nil` silently; and
/// every option it declares is read: one no code reads would be accepted and then ignored.
@Suite(.tags(.small)) struct CommandOptionDeclarationTests {
    /// The names `command` reads while it is built from its arguments, and whether each is declared: once
    /// with none given, once with every option, flag and positional given (so that reads behind a required
    /// value run too), and once with the positionals and each option alone (so that reads after a check of
    /// two options that exclude each other run too).
    static func reads(of command: any Command.Type) -> [String: Bool] {
        let reads = Mutex<[String: Bool]>([:])
        let options = command.configuration.options
        let empty = ParsedArguments(declaring: options) { name, isDeclared in
            reads.withLock { $0[name] = isDeclared }
        }
        var positionals = empty
        positionals.positionals = Array(repeating: "1", count: max(1, command.configuration.arguments.count))
        var full = positionals
        var alone: [ParsedArguments] = []
        for option in options {
            full.add(option.choices?.first ?? "1", for: option)
            var one = positionals
            one.add(option.choices?.first ?? "1", for: option)
            alone.append(one)
        }
        for arguments in [empty, full] + alone { _ = try? command.init(parsing: arguments) }
        return reads.withLock { $0 }
    }

    /// The undeclared names `command` reads.
    static func undeclaredReads(of command: any Command.Type) -> Set<String> {
        Set(reads(of: command).filter { !$0.value }.keys)
    }

    /// The declared names `command` never reads.
    static func unreadDeclarations(of command: any Command.Type) -> Set<String> {
        Set(command.configuration.options.map(\.canonicalName)).subtracting(reads(of: command).keys)
    }

    /// Every command of the tree under `root`, depth first.
    static func commands(under root: any Command.Type) -> [any Command.Type] {
        [root] + root.configuration.subcommands.flatMap { commands(under: $0) }
    }

    @Test func everyOptionReadIsDeclared() {
        let all = Self.commands(under: SCLM.self)
        #expect(all.count > 20)
        for command in all {
            let name = command.configuration.commandName
            #expect(Self.undeclaredReads(of: command).sorted() == [], "\(name) reads options it does not declare")
        }
    }

    @Test func everyDeclaredOptionIsRead() {
        for command in Self.commands(under: SCLM.self) {
            let name = command.configuration.commandName
            #expect(Self.unreadDeclarations(of: command).sorted() == [], "\(name) declares options it never reads")
        }
    }

    @Test func aReadOfAnUndeclaredOptionIsCaught() {
        #expect(Self.undeclaredReads(of: Undeclared.self) == ["--tries"])
    }

    @Test func aDeclaredOptionNoCodeReadsIsCaught() {
        #expect(Self.unreadDeclarations(of: Unread.self) == ["--tries"])
    }
}

/// A command that declares `--jobs` but reads `--tries`, which it forgot to list. (A misspelled option
/// cannot get this far: options are read only through their typed descriptors, so `Self.jobz` does not
/// compile.)
private struct Undeclared: Command {
    static let configuration = CommandConfiguration(
        commandName: "undeclared", abstract: "Reads an option it does not list.", options: [jobs])
    static let jobs: CommandOption<Int?> = .integer("--jobs", value: "n", help: "Jobs.")
    static let tries: CommandOption<Int?> = .integer("--tries", value: "n", help: "Tries.")
    let jobs: Int?
    let tries: Int?
    init(parsing arguments: ParsedArguments) throws {
        jobs = try arguments.read(Self.jobs)
        tries = try arguments.read(Self.tries)
    }
}

/// A command that lists `--tries` but never reads it: the option would be accepted and then ignored.
private struct Unread: Command {
    static let configuration = CommandConfiguration(
        commandName: "unread", abstract: "Lists an option it never reads.", options: [jobs, tries])
    static let jobs: CommandOption<Int?> = .integer("--jobs", value: "n", help: "Jobs.")
    static let tries: CommandOption<Int?> = .integer("--tries", value: "n", help: "Tries.")
    let jobs: Int?
    init(parsing arguments: ParsedArguments) throws {
        jobs = try arguments.read(Self.jobs)
    }
}
