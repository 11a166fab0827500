import SCLMCore

/// A command result that prints as text, or as one line of JSON with `--json`.
///
/// The JSON form keeps every string exactly; the text form is a ``TerminalText``, so each value interpolated
/// into it is escaped for the terminal.
protocol CommandOutput: Encodable {
    /// The human-readable form.
    var text: TerminalText { get }
}

extension CommandContext {
    /// Prints `output` as one JSON line with `--json`, else as text.
    func emit(_ output: some CommandOutput) {
        if wantsJSON {
            printJSON(output)
        } else {
            print(output.text)
        }
    }
}

extension TextTable {
    /// `text` with every line indented by two spaces, for tables under a heading.
    static func indented(_ text: TerminalText) -> TerminalText {
        let lines = text.rendered.split(separator: "\n", omittingEmptySubsequences: false).map { "  " + $0 }
        return TerminalText(trusted: lines.joined(separator: "\n"))
    }
}
