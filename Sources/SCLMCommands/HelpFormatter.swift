/// Renders help and usage text in argument-parser's layout: OVERVIEW, USAGE, ARGUMENTS, OPTIONS, SUBCOMMANDS.
package enum HelpFormatter {
    private static let column = 28

    /// The full help of `command` reached through `path`.
    package static func help(for command: any Command.Type, path: [String]) -> String {
        let configuration = command.configuration
        var sections = ["OVERVIEW: \(configuration.abstract)"]
        if !configuration.discussion.isEmpty { sections.append(configuration.discussion) }
        sections.append("USAGE: \(usage(for: command, path: path))")
        if !configuration.arguments.isEmpty {
            sections.append(
                "ARGUMENTS:\n" + configuration.arguments.map { row("<\($0.name)>", $0.help) }.joined(separator: "\n"))
        }
        let isRoot = path.count == 1
        let options =
            configuration.options + (isRoot ? GlobalOptions.specs : [GlobalOptions.specs.last].compactMap { $0 })
        sections.append("OPTIONS:\n" + options.map { row(label(for: $0), $0.help) }.joined(separator: "\n"))
        if !configuration.subcommands.isEmpty {
            let rows = configuration.subcommands.map { row($0.configuration.commandName, $0.configuration.abstract) }
            let hint = "\n\n  See '\(path.joined(separator: " ")) help <subcommand>' for detailed help."
            sections.append("SUBCOMMANDS:\n" + rows.joined(separator: "\n") + hint)
        }
        if !isRoot {
            sections.append("  Global options (--home, --json, -v, -q) work with every command; see 'sclm --help'.")
        }
        return sections.joined(separator: "\n\n") + "\n"
    }

    /// The one-line usage of `command`, e.g. `sclm sync [--client <id|name> ...] [--jobs <n>]`.
    package static func usage(for command: any Command.Type, path: [String]) -> String {
        let configuration = command.configuration
        var parts = [path.joined(separator: " ")]
        if !configuration.subcommands.isEmpty {
            parts.append("<subcommand>")
            return parts.joined(separator: " ")
        }
        for option in configuration.options {
            let value = option.valueName.map { " <\($0)>" } ?? ""
            let text = "\(option.canonicalName)\(value)\(option.isRepeatable && option.valueName != nil ? " ..." : "")"
            parts.append(option.isRequired ? text : "[\(text)]")
        }
        for argument in configuration.arguments {
            let text = "<\(argument.name)>" + (argument.isRepeating ? " ..." : "")
            parts.append(argument.isOptional ? "[\(text)]" : text)
        }
        return parts.joined(separator: " ")
    }

    private static func label(for option: OptionSpec) -> String {
        option.names.joined(separator: ", ") + (option.valueName.map { " <\($0)>" } ?? "")
    }

    private static func row(_ label: String, _ help: String) -> String {
        let name = "  " + label
        if name.count >= column { return name + "\n" + String(repeating: " ", count: column) + help }
        return name + String(repeating: " ", count: column - name.count) + help
    }
}
