import SCLMCommands
import SCLMTestSupport
import Synchronization
import Testing

/// Every option a command reads is one its configuration declares (help, completions, the man page and
/// docs/cli.md come from the declarations): a typo or a forgotten declaration would read `nil` silently.
@Suite(.tags(.small)) struct CommandOptionDeclarationTests {
    /// The undeclared names `command` reads while it is built from its arguments, once with none given and
    /// once with every option, flag and positional given (so that reads behind a required value run too).
    static func undeclaredReads(of command: any Command.Type) -> Set<String> {
        let reads = Mutex<Set<String>>([])
        let options = command.configuration.options
        var full = ParsedArguments(declaring: options) { name in _ = reads.withLock { $0.insert(name) } }
        let empty = full
        full.positionals = Array(repeating: "1", count: max(1, command.configuration.arguments.count))
        for option in options {
            full.add(option.choices?.first ?? "1", for: option)
        }
        _ = try? command.init(parsing: empty)
        _ = try? command.init(parsing: full)
        return reads.withLock { $0 }
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

    @Test func aReadOfAnUndeclaredOptionIsCaught() {
        #expect(Self.undeclaredReads(of: Undeclared.self) == ["--tries"])
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
