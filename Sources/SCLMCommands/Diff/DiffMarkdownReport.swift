import Foundation
import SCLMArchive
import SCLMCore

/// The `sclm diff --format markdown` output: a summary for a merge-request comment, with a table of the
/// slides that are not unchanged (with what their pictures showed) and lists of the word changes and findings.
struct DiffMarkdownReport {
    let diff: PackageDiff
    let old: String
    let new: String
    /// The compared pictures, by slide name.
    var pictures: [String: SlidePictures] = [:]

    var text: TerminalText {
        var lines: [TerminalText] = [
            "### Deck changes: \(Self.code(old)) → \(Self.code(new))", "",
            "**\(TerminalText(trusted: diff.summaryLine))**",
        ]
        if diff.hasNoChanges {
            lines += ["", "No changes."]
            return lines.joined(separator: "\n")
        }
        let shown = diff.slides.filter { $0.kind != .unchanged }
        if !shown.isEmpty {
            lines += ["", "| slide | change | pictures | files |", "| --- | --- | --- | --- |"]
            lines += shown.map { slide in
                let name = slide.oldName.map { "\(Self.code($0)) → \(Self.code(slide.name))" } ?? Self.code(slide.name)
                let files = slide.files.map {
                    "\($0.kind.rawValue) \(Self.code($0.path)) (\(DiffTextReport.sizes($0)))"
                }
                let pictures = self.pictures[slide.name].map { Self.plain($0.summary) } ?? ""
                return "| \(name) | \(slide.kind.rawValue) | \(pictures) | \(files.joined(separator: "<br>")) |"
            }
        }
        for slide in shown where !slide.words.isEmpty {
            lines += ["", "**Text of \(Self.code(slide.name))**", ""]
            lines += slide.words.map { change in
                let verb = change.kind == .deleted ? "deleted" : "inserted"
                return "- \(verb) \(Self.code(change.text)) in \(Self.code(change.element))"
            }
        }
        if !diff.otherFiles.isEmpty {
            lines += ["", "**Other files (in no slide)**", ""]
            lines += diff.otherFiles.map { "- \($0.kind.rawValue) \(Self.code($0.path)) (\(DiffTextReport.sizes($0)))" }
        }
        for (title, keys) in [("New findings", diff.newFindings), ("Gone findings", diff.goneFindings)]
        where !keys.isEmpty {
            lines += ["", "**\(title)**", ""]
            lines += keys.map {
                "- \($0.severity) `\($0.rule)` \(Self.code($0.path ?? "(package)")): \(Self.plain($0.message))"
            }
        }
        return lines.joined(separator: "\n")
    }

    /// `text` as inline code: backticks and line breaks cannot end the span, a table's `|` cannot split a cell.
    private static func code(_ text: String) -> String {
        "`" + plain(text).replacingOccurrences(of: "`", with: "'") + "`"
    }

    /// `text` on one line, with `|` escaped for tables.
    private static func plain(_ text: String) -> String {
        text.split(whereSeparator: \.isNewline).joined(separator: " ").replacingOccurrences(of: "|", with: "\\|")
    }
}
