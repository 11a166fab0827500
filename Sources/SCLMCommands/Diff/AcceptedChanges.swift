import Foundation
import SCLMArchive
import SCLMCore

/// The changes a review accepted (`sclm diff --accept-changes FILE`): what a content CI's visual-regression
/// gate lets through.
///
/// One entry a line: a slide's name (its new name; the old one for a removed slide), a file outside every
/// slide (as `sclm diff` lists it under other files), or `finding RULE-ID` for the new findings of that
/// rule. `#` starts a comment; blank lines are skipped.
struct AcceptedChanges {
    private let slides: Set<String>
    private let rules: Set<String>

    /// The entries of the file at `path`.
    ///
    /// - Throws: `SCLMError` (`.storage`) when it cannot be read.
    init(path: String) throws {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw SCLMError(.storage, "cannot read the accepted changes in \(path): no such file, or not readable")
        }
        self.init(text: String(decoding: data, as: UTF8.self))
    }

    /// The entries of `text`.
    init(text: String) {
        var slides: Set<String> = []
        var rules: Set<String> = []
        for line in text.split(whereSeparator: \.isNewline) {
            let entry = line.prefix { $0 != "#" }.trimmingCharacters(in: .whitespaces)
            if entry.hasPrefix("finding ") {
                rules.insert(entry.dropFirst("finding ".count).trimmingCharacters(in: .whitespaces))
            } else if !entry.isEmpty {
                slides.insert(entry)
            }
        }
        self.slides = slides
        self.rules = rules
    }

    /// Whether the change to `slide` was accepted.
    func accepts(_ slide: PackageDiff.Slide) -> Bool {
        slides.contains(slide.name) || slide.oldName.map(slides.contains) == true
    }

    /// Whether the change to `file`, outside every slide, was accepted.
    func accepts(_ file: PackageDiff.FileChange) -> Bool { slides.contains(file.path) }

    /// Whether the new `finding` was accepted.
    func accepts(_ finding: PackageDiff.FindingKey) -> Bool { rules.contains(finding.rule) }

    /// Whether every change of `diff` was accepted.
    func acceptsAll(of diff: PackageDiff) -> Bool {
        diff.slides.allSatisfy { $0.kind == .unchanged || accepts($0) } && diff.otherFiles.allSatisfy(accepts)
            && diff.newFindings.allSatisfy(accepts)
    }

    /// The entries that name nothing `diff` changed: stale, once the change they accepted went away.
    func unused(by diff: PackageDiff) -> [String] {
        let changed = diff.slides.filter { $0.kind != .unchanged }.flatMap {
            [$0.name] + ($0.oldName.map { [$0] } ?? [])
        }
        let named = Set(changed + diff.otherFiles.map(\.path))
        let findings = Set(diff.newFindings.map(\.rule))
        return slides.subtracting(named).sorted() + rules.subtracting(findings).sorted().map { "finding \($0)" }
    }
}
