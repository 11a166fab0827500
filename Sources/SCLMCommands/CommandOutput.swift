/// A command result that prints as text, or as one line of JSON with `--json`.
protocol CommandOutput: Encodable {
    /// The human-readable form.
    var text: String { get }
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
    static func indented(_ text: String) -> String {
        text.split(separator: "\n", omittingEmptySubsequences: false).map { "  " + $0 }.joined(separator: "\n")
    }
}
