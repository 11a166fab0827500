import Foundation

/// A shell that `sclm completions` writes a completion script for.
enum ShellCompletion: String, CaseIterable {
    case bash, zsh, fish

    /// The script for the tree under `root`: commands, subcommands, options, and the values of options and
    /// arguments that are a fixed choice (files and folders where a path is expected).
    func script(root: any Command.Type) -> String {
        let tree = CommandTree(root: root)
        switch self {
        case .bash: return BashCompletion(tree: tree).script
        case .zsh: return ZshCompletion(tree: tree).script
        case .fish: return FishCompletion(tree: tree).script
        }
    }
}

/// A place where the word to complete is a value: after an option that takes one, or after a word of an
/// argument that decides the next argument's values. Offered: the choices, paths, or nothing (a free value).
struct ValueSlot {
    /// The words after which the value comes (an option's spellings, or one argument word).
    let after: [String]
    let choices: [String]?
    let isPath: Bool
}

extension CommandTree.Node {
    /// Every value slot of the command: its value options, then the argument words that fix the next value.
    var valueSlots: [ValueSlot] {
        let options = valueOptions.map { ValueSlot(after: $0.names, choices: $0.choices, isPath: $0.takesPath) }
        let words = configuration.arguments.flatMap { argument in
            argument.choicesAfter.sorted { $0.key < $1.key }.map { word, choices in
                ValueSlot(after: [word], choices: choices.isEmpty ? nil : choices, isPath: false)
            }
        }
        return options + words
    }

    /// The names of the subcommands.
    var subcommandNames: [String] { configuration.subcommands.map { $0.configuration.commandName } }
    /// The options that take a value.
    var valueOptions: [OptionSpec] { allOptions.filter { $0.valueName != nil } }
    /// The fixed values of the positional arguments, if any.
    var argumentChoices: [String] { configuration.arguments.flatMap { $0.choices ?? [] } }
    /// Whether a positional argument is a path.
    var takesPathArgument: Bool { configuration.arguments.contains(where: \.isPath) }
}

extension CommandTree {
    /// A shell `case` pattern matching any group's path followed by a word, e.g. `"sclm config"|"sclm osam"`.
    func commandPattern(quote: (String) -> String) -> String {
        nodes.dropFirst().map { quote($0.name) }.joined(separator: "|")
    }
}

/// Quotes `text` for a POSIX shell (bash, zsh) or fish: single quotes, with embedded ones escaped.
func shellQuote(_ text: String) -> String {
    "'" + text.replacingOccurrences(of: "'", with: #"'\''"#) + "'"
}
