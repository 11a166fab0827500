import Foundation
import SCLMCore

/// Renders the `sclm(1)` manual page (roff, `man` macros) from the command definitions that print `--help`:
/// every command with its usage, help and options, the settings, the environment and the exit codes.
enum ManPage {
    /// The whole page for the tree under `root`.
    static func render(root: any Command.Type) -> String {
        let tree = CommandTree(root: root)
        guard let top = tree.nodes.first else { return "" }
        var lines = [
            #".TH SCLM 1 "" "sclm \#(SCLMVersion.current)" "User Commands""#,
            ".SH NAME",
            "sclm \\- \(escape(top.configuration.abstract))",
            ".SH SYNOPSIS",
            ".B sclm",
            "[\\fIglobal options\\fR] \\fIcommand\\fR [\\fIoptions\\fR] [\\fIarguments\\fR]",
            ".SH DESCRIPTION",
        ]
        lines += paragraphs(top.configuration.discussion)
        lines += [".SH GLOBAL OPTIONS"] + GlobalOptions.specs.flatMap(optionLines)
        lines.append(".SH COMMANDS")
        for node in tree.nodes.dropFirst() { lines += commandLines(node) }
        lines += settingLines() + environmentLines()
        lines += [".SH SEE ALSO", "sclm \\fIcommand\\fR \\-\\-help prints the same help for one command."]
        return lines.joined(separator: "\n") + "\n"
    }

    private static func commandLines(_ node: CommandTree.Node) -> [String] {
        let configuration = node.configuration
        var lines = [#".SS "\#(escape(node.name))""#, escape(configuration.abstract), ".PP", ".nf"]
        lines.append(escape(HelpFormatter.usage(for: node.command, path: node.path)))
        lines.append(".fi")
        lines += paragraphs(configuration.discussion)
        for argument in configuration.arguments {
            lines += [".TP", "\\fI<\(escape(argument.name))>\\fR", escape(argument.help)]
        }
        return lines + configuration.options.flatMap(optionLines)
    }

    private static func optionLines(_ option: OptionSpec) -> [String] {
        let names = option.names.map { "\\fB\(escape($0))\\fR" }.joined(separator: ", ")
        let value = option.valueName.map { " \\fI<\(escape($0))>\\fR" } ?? ""
        return [".TP", names + value, escape(option.help)]
    }

    private static func settingLines() -> [String] {
        var lines = [
            ".SH SETTINGS", "Stored in config.json in the sclm home with \\fBsclm config set\\fR \\fIkey value\\fR.",
        ]
        for key in SettingsCatalog.all {
            var help = key.help
            if key.format != .text { help += " Accepts \(key.format.acceptedForm)." }
            if let value = key.defaultValue { help += " Default: \(value)." }
            lines += [".TP", "\\fB\(escape(key.name))\\fR", escape(help)]
        }
        return lines
    }

    private static func environmentLines() -> [String] {
        var lines = [".SH ENVIRONMENT", ".TP", "\\fBSCLM_HOME\\fR", "The sclm home, unless \\-\\-home is given."]
        for key in SettingsCatalog.all {
            guard let variable = key.environmentVariable else { continue }
            lines += [".TP", "\\fB\(escape(variable))\\fR", escape("Overrides the \(key.name) setting.")]
        }
        return lines + [".TP", "\\fBNO_COLOR\\fR", "Turns off colour in output."]
    }

    /// Blank-line separated blocks of `text`, each an indented paragraph.
    private static func paragraphs(_ text: String) -> [String] {
        guard !text.isEmpty else { return [] }
        return text.components(separatedBy: "\n\n").flatMap { [".PP", escape($0)] }
    }

    /// `text` safe as roff body text: backslashes doubled, dashes literal, no line read as a request.
    static func escape(_ text: String) -> String {
        text.replacingOccurrences(of: "\\", with: "\\e").replacingOccurrences(of: "-", with: "\\-")
            .split(separator: "\n", omittingEmptySubsequences: false)
            .map { line in
                let trimmed = line.drop { $0 == " " }
                return trimmed.hasPrefix(".") || trimmed.hasPrefix("'") ? "\\&" + trimmed : String(trimmed)
            }
            .joined(separator: "\n")
    }
}
