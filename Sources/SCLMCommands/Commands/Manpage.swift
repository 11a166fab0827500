import SCLMCore

extension SCLM {
    /// `sclm manpage`: print the sclm(1) manual page.
    package struct Manpage: Command {
        package static let configuration = CommandConfiguration(
            commandName: "manpage",
            abstract: "Print the sclm(1) manual page (roff) with every command, option and setting.",
            discussion: "Read it with: sclm manpage | man -l -. `make install` installs it as sclm.1.")

        package init(parsing arguments: ParsedArguments) throws {}

        package func run(_ context: CommandContext) async throws {
            context.stdout.write(ManPage.render(root: SCLM.self))
        }
    }
}
