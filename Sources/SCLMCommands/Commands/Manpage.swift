import SCLMCore

extension SCLM {
    /// `sclm manpage`: print the sclm(1) manual page.
    public struct Manpage: Command {
        public static let configuration = CommandConfiguration(
            commandName: "manpage",
            abstract: "Print the sclm(1) manual page (roff) with every command, option and setting.",
            discussion: "Read it with: sclm manpage | man -l -. `make install` installs it as sclm.1.")

        public init(parsing arguments: ParsedArguments) throws {}

        public func run(_ context: CommandContext) async throws {
            context.stdout.write(ManPage.render(root: SCLM.self))
        }
    }
}
