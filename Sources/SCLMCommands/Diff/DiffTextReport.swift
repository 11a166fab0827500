import Foundation
import SCLMArchive
import SCLMCore

/// The human-readable `sclm diff` output: the summary line, then each slide that is not unchanged, the files
/// of a changed slide's closure that differ and the words of its static text that did, the files outside
/// every slide, and the findings new and gone. A slide whose pictures were compared says what changed in
/// them, with its diff image when one was kept.
struct DiffTextReport {
    let diff: PackageDiff
    /// The compared pictures, by slide name.
    var pictures: [String: SlidePictures] = [:]
    /// Where the images are kept, if anywhere.
    var imagesFolder: String?

    var text: TerminalText {
        var lines: [TerminalText] = [TerminalText(trusted: diff.summaryLine)]
        if diff.hasNoChanges {
            lines.append("no changes")
            return lines.joined(separator: "\n")
        }
        for slide in diff.slides where slide.kind != .unchanged {
            lines += self.slide(slide)
        }
        if !diff.otherFiles.isEmpty {
            lines.append("other files (in no slide):")
            lines += diff.otherFiles.map { "  \(Self.describe($0))" }
        }
        lines += findings("new findings", diff.newFindings)
        lines += findings("gone findings", diff.goneFindings)
        return lines.joined(separator: "\n")
    }

    private func slide(_ slide: PackageDiff.Slide) -> [TerminalText] {
        let kind = TerminalText(trusted: slide.kind.rawValue.padding(toLength: 9, withPad: " ", startingAt: 0))
        guard let oldName = slide.oldName else {
            var lines: [TerminalText] = ["\(kind)\(slide.name)"]
            lines += slide.files.map { "  \(Self.describe($0))" }
            lines += pictureLines(of: slide)
            if !slide.words.isEmpty { lines.append("  text:") }
            lines += slide.words.map { change in
                let sign = change.kind == .deleted ? "-" : "+"
                return "    \(sign) \"\(change.text)\" in \(change.element)"
            }
            return lines
        }
        return ["\(kind)\(oldName) → \(slide.name)"] + pictureLines(of: slide)
    }

    /// `  pictures: 1234 pixels changed in 2 regions (diff: DIR/diff/index.png)`, when they were compared.
    private func pictureLines(of slide: PackageDiff.Slide) -> [TerminalText] {
        guard let pictures = self.pictures[slide.name] else { return [] }
        guard let imagesFolder, let image = pictures.diffImage else { return ["  pictures: \(pictures.summary)"] }
        return ["  pictures: \(pictures.summary) (diff: \(imagesFolder + "/" + image))"]
    }

    private func findings(_ title: TerminalText, _ keys: [PackageDiff.FindingKey]) -> [TerminalText] {
        guard !keys.isEmpty else { return [] }
        return ["\(title):"] + keys.map { "  \($0.severity) \($0.rule) \($0.path ?? "(package)"): \($0.message)" }
    }

    /// `changed css/deck.css (812 B → 830 B)`.
    static func describe(_ file: PackageDiff.FileChange) -> TerminalText {
        "\(file.kind.rawValue) \(file.path) (\(sizes(file)))"
    }

    /// The sizes of a file change: `812 B → 830 B`, `830 B` (added) or `812 B` (removed).
    static func sizes(_ file: PackageDiff.FileChange) -> String {
        [file.oldSize, file.newSize].compactMap { $0.map(ByteCount.format) }.joined(separator: " → ")
    }
}

extension PackageDiff {
    /// `6 slides: 1 added, 1 removed, 1 renamed, 2 changed, 1 unchanged; findings: 2 new, 0 gone`.
    var summaryLine: String {
        let counts = SlideKind.allCases.map { "\(count($0)) \($0.rawValue)" }.joined(separator: ", ")
        let slides = self.slides.count == 1 ? "1 slide" : "\(self.slides.count) slides"
        let other = otherFiles.isEmpty ? "" : "; other files: \(otherFiles.count) changed"
        return "\(slides): \(counts)\(other); findings: \(newFindings.count) new, \(goneFindings.count) gone"
    }
}
