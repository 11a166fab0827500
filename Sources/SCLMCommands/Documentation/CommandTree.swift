/// Every command of a tree with the path that reaches it, in help order: the one walk that the manual
/// page and the shell completions are generated from, so they list exactly what `--help` shows.
struct CommandTree {
    /// One command and the names that reach it (`["sclm", "config", "set"]`).
    struct Node {
        let path: [String]
        let command: any Command.Type

        var configuration: CommandConfiguration { command.configuration }
        /// The path as typed, `sclm config set`.
        var name: String { path.joined(separator: " ") }
        var isRoot: Bool { path.count == 1 }
        /// The command's own options, then the global ones it accepts (all of them at the root, `--help` below).
        var allOptions: [OptionSpec] {
            configuration.options
                + (isRoot ? GlobalOptions.specs : GlobalOptions.specs.filter { $0.canonicalName != "--version" })
        }
    }

    /// The commands, root first, each followed by its subcommands.
    let nodes: [Node]

    /// Walks the tree under `root`.
    init(root: any Command.Type) {
        var nodes: [Node] = []
        func visit(_ command: any Command.Type, path: [String]) {
            nodes.append(Node(path: path, command: command))
            for child in command.configuration.subcommands {
                visit(child, path: path + [child.configuration.commandName])
            }
        }
        visit(root, path: [root.configuration.commandName])
        self.nodes = nodes
    }

    /// The commands that have subcommands (a completion walks through them).
    var groups: [Node] { nodes.filter { !$0.configuration.subcommands.isEmpty } }
}

extension OptionSpec {
    /// Whether the value names a file or folder (completions offer paths).
    var takesPath: Bool { ["dir", "path", "file"].contains(valueName ?? "") }
}
