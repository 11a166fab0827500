import SCLMCore

extension SCLM {
    /// `sclm completions bash|zsh|fish`: print a shell completion script.
    package struct Completions: Command {
        package static let configuration = CommandConfiguration(
            commandName: "completions",
            abstract: "Print a bash, zsh or fish completion script for sclm.",
            discussion: """
                The script completes commands, subcommands, options and the values of options that are a fixed
                choice. Load it for this shell with: source <(sclm completions bash). `make install` installs all
                three where bash-completion, zsh and fish look for them.
                """,
            arguments: [
                ArgumentSpec("shell", help: "bash, zsh or fish.", choices: ShellCompletion.allCases.map(\.rawValue))
            ])

        let shell: ShellCompletion

        package init(parsing arguments: ParsedArguments) throws {
            let name = try arguments.positional(0, named: "shell")
            guard let shell = ShellCompletion(rawValue: name) else {
                throw ValidationError("<shell> must be bash, zsh or fish, got '\(name)'")
            }
            self.shell = shell
        }

        package func run(_ context: CommandContext) async throws {
            context.stdout.write(shell.script(root: SCLM.self))
        }
    }
}
