import SCLMCommands
import Testing

/// `tool fetch [--jobs N] [--tag T]… [--dry-run] <what> [<more>…]` under a root with no options.
private struct Tool: Command {
    static let configuration = CommandConfiguration(
        commandName: "tool", abstract: "A test tree.", subcommands: [Fetch.self, Status.self])
    init(parsing arguments: ParsedArguments) throws {}
}

private struct Fetch: Command {
    static let configuration = CommandConfiguration(
        commandName: "fetch", abstract: "Fetch things.",
        arguments: [
            ArgumentSpec("what", help: "What."), ArgumentSpec("more", help: "More.", optional: true, repeating: true),
        ],
        options: [jobs, tag, dryRun])
    static let jobs: CommandOption<Int?> = .integer("-j", "--jobs", value: "N", help: "Parallel jobs.")
    static let tag: CommandOption<[String]> = .texts("--tag", value: "T", help: "A tag.")
    static let dryRun: CommandOption<Bool> = .flag("--dry-run", help: "Change nothing.")
    init(parsing arguments: ParsedArguments) throws {}
}

private struct Status: Command {
    static let configuration = CommandConfiguration(commandName: "status", abstract: "Takes no arguments.")
    init(parsing arguments: ParsedArguments) throws {}
}

@Suite struct CommandParserTests {
    let parser = CommandParser(root: Tool.self)

    /// The usage message `argv` is refused with, or `nil` when it parses.
    func refusal(_ argv: [String]) -> String? {
        do {
            _ = try parser.parse(argv)
            return nil
        } catch let failure as CommandParser.Failure {
            return failure.error.message
        } catch {
            return "unexpected \(error)"
        }
    }

    @Test func parsesOptionsFlagsPositionalsAndGlobalsInAnyOrder() throws {
        let invocation = try parser.parse(
            ["--json", "fetch", "a", "--jobs=3", "--tag", "x", "-v", "--tag", "y", "--dry-run", "--home", "/h", "b"])
        #expect(invocation.path == ["tool", "fetch"])
        #expect(invocation.arguments.positionals == ["a", "b"])
        #expect(try invocation.arguments.read(Fetch.jobs) == 3)
        #expect(try invocation.arguments.read(Fetch.tag) == ["x", "y"])
        #expect(try invocation.arguments.read(Fetch.dryRun))
        #expect(invocation.globals.home == "/h")
        #expect(invocation.globals.json && invocation.globals.verbose && !invocation.globals.quiet)
    }

    @Test func afterTheTerminatorEverythingIsPositional() throws {
        let invocation = try parser.parse(["fetch", "--", "--jobs", "-v"])
        #expect(invocation.arguments.positionals == ["--jobs", "-v"])
        #expect(try invocation.arguments.read(Fetch.jobs) == nil)
        #expect(!invocation.globals.verbose)
    }

    @Test(
        arguments: [
            (["fetch", "a", "--jobs"], "option '--jobs' needs a value"),
            (["fetch", "a", "-j", "1", "--jobs", "2"], "option '--jobs' may only be given once"),
            (["fetch", "a", "--dry-run=yes"], "flag '--dry-run' does not take a value"),
            (["fetch", "a", "--colour"], "unknown option '--colour'"),
            (["fetch"], "missing <what>"),
            (["fetch", "a", "b", "c"], nil),
            (["fetsh"], "unknown command 'fetsh'; did you mean `fetch`?"),
            (["--home"], "option '--home' needs a value"),
            (["status", "extra"], "unexpected argument 'extra'"),
        ] as [([String], String?)])
    func refusesBadCommandLinesWithTheReason(argv: [String], message: String?) {
        #expect(refusal(argv) == message)
    }
}
