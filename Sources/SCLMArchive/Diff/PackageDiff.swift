/// What changed between two revisions of a package, slide by slide (`sclm diff OLD NEW`).
///
/// Slides are matched by name. A slide only in the new revision whose HTML and closure (``PackageContents/closure(of:)``)
/// are byte-identical to those of a slide only in the old one (the slide file itself aside) is *renamed*;
/// the others are *added* or *removed*. A slide in both is *unchanged* when its closure is byte-identical
/// (SHA-256 per file), else *changed*, with the files of its closure that differ and the words of its static
/// text (``SlideText``) that did. Files that differ but belong to no slide's closure are listed apart, and
/// static findings are compared by rule, path and message (line numbers ignored, so a finding that only
/// moved is neither new nor gone).
package struct PackageDiff: Sendable {
    /// What happened to a slide.
    package enum SlideKind: String, Sendable, Encodable, CaseIterable {
        case added, removed, renamed, changed, unchanged
    }

    /// What happened to a file.
    package enum FileKind: String, Sendable, Encodable {
        case added, removed, changed
    }

    /// A file that differs, with its sizes (`nil` where it does not exist).
    package struct FileChange: Sendable, Equatable {
        package let path: String
        package let kind: FileKind
        package let oldSize: Int64?
        package let newSize: Int64?
    }

    /// One slide of either revision.
    package struct Slide: Sendable, Equatable {
        /// Its name in the new revision (the old one for a removed slide).
        package let name: String
        /// Its name in the old revision when it was renamed.
        package let oldName: String?
        package let kind: SlideKind
        /// The files of its closure that differ (for a changed slide).
        package let files: [FileChange]
        /// The words of its static text that differ (for a changed slide).
        package let words: [WordDiff.Change]
    }

    /// A static finding, as findings are compared.
    package struct FindingKey: Sendable, Hashable, Comparable {
        package let rule: String
        package let severity: String
        package let path: String?
        package let message: String

        package static func < (lhs: FindingKey, rhs: FindingKey) -> Bool {
            (lhs.path ?? "", lhs.rule, lhs.message) < (rhs.path ?? "", rhs.rule, rhs.message)
        }
    }

    /// Every slide of both revisions: the new revision's in its slide order, then the removed ones.
    package let slides: [Slide]
    /// Files that differ outside every slide's closure.
    package let otherFiles: [FileChange]
    /// Static findings of the new revision that the old one does not have.
    package let newFindings: [FindingKey]
    /// Static findings of the old revision that the new one no longer has.
    package let goneFindings: [FindingKey]

    /// Whether the revisions are the same: no slide other than unchanged, no other file, no finding change.
    package var hasNoChanges: Bool {
        slides.allSatisfy { $0.kind == .unchanged } && otherFiles.isEmpty && newFindings.isEmpty
            && goneFindings.isEmpty
    }

    /// The number of slides of `kind`.
    package func count(_ kind: SlideKind) -> Int { slides.count { $0.kind == kind } }

    /// Compares revision `old` with revision `new`.
    package init(old: PackageContents, new: PackageContents) {
        let oldSlides = old.slides
        let newSlides = new.slides
        let renames = Self.renames(
            removed: oldSlides.filter { !newSlides.contains($0) },
            added: newSlides.filter { !oldSlides.contains($0) }, old: old, new: new)
        var slides: [Slide] = []
        for name in newSlides {
            if let oldName = renames[name] {
                slides.append(Slide(name: name, oldName: oldName, kind: .renamed, files: [], words: []))
            } else if oldSlides.contains(name) {
                slides.append(Self.kept(name, old: old, new: new))
            } else {
                slides.append(Slide(name: name, oldName: nil, kind: .added, files: [], words: []))
            }
        }
        let renamedFrom = Set(renames.values)
        for name in oldSlides where !newSlides.contains(name) && !renamedFrom.contains(name) {
            slides.append(Slide(name: name, oldName: nil, kind: .removed, files: [], words: []))
        }
        self.slides = slides
        let inClosures = Set(
            oldSlides.flatMap { old.closure(of: $0).keys } + newSlides.flatMap { new.closure(of: $0).keys })
        otherFiles = Self.fileChanges(old.files, new.files).filter { !inClosures.contains($0.path) }
        let oldFindings = Self.keys(old.report.findings)
        let newFindings = Self.keys(new.report.findings)
        self.newFindings = Self.subtracting(oldFindings, from: newFindings)
        goneFindings = Self.subtracting(newFindings, from: oldFindings)
    }

    /// A slide in both revisions: unchanged, or changed with its files and words.
    private static func kept(_ name: String, old: PackageContents, new: PackageContents) -> Slide {
        let files = fileChanges(old.closure(of: name), new.closure(of: name))
        guard !files.isEmpty else { return Slide(name: name, oldName: nil, kind: .unchanged, files: [], words: []) }
        let words = WordDiff.changes(
            from: SlideText(html: old.html[name] ?? []).words, to: SlideText(html: new.html[name] ?? []).words)
        return Slide(name: name, oldName: nil, kind: .changed, files: files, words: words)
    }

    /// New slide name → old slide name, for added slides whose HTML and closure equal a removed slide's.
    private static func renames(removed: [String], added: [String], old: PackageContents, new: PackageContents)
        -> [String: String]
    {
        var candidates = removed
        var renames: [String: String] = [:]
        for name in added {
            let signature = Self.signature(of: name, in: new)
            if let index = candidates.firstIndex(where: { Self.signature(of: $0, in: old) == signature }) {
                renames[name] = candidates.remove(at: index)
            }
        }
        return renames
    }

    /// What makes two slides the same under different names: the slide's bytes and its closure's other files.
    private static func signature(of slide: String, in contents: PackageContents) -> [String: PackageFile] {
        var closure = contents.closure(of: slide)
        closure[""] = closure.removeValue(forKey: slide)
        return closure
    }

    /// The files that differ between `old` and `new`, by path.
    private static func fileChanges(_ old: [String: PackageFile], _ new: [String: PackageFile]) -> [FileChange] {
        Set(old.keys).union(new.keys).sorted().compactMap { path in
            switch (old[path], new[path]) {
            case (let before?, let after?):
                before == after
                    ? nil : FileChange(path: path, kind: .changed, oldSize: before.size, newSize: after.size)
            case (let before?, nil): FileChange(path: path, kind: .removed, oldSize: before.size, newSize: nil)
            case (nil, let after?): FileChange(path: path, kind: .added, oldSize: nil, newSize: after.size)
            case (nil, nil): nil
            }
        }
    }

    /// `findings` as comparison keys, with their counts.
    private static func keys(_ findings: [Finding]) -> [FindingKey: Int] {
        var counts: [FindingKey: Int] = [:]
        for finding in findings {
            let key = FindingKey(
                rule: finding.rule.id, severity: finding.severity.rawValue, path: finding.path,
                message: finding.message)
            counts[key, default: 0] += 1
        }
        return counts
    }

    /// The findings of `counts` that `other` has fewer of, once per extra occurrence, sorted.
    private static func subtracting(_ other: [FindingKey: Int], from counts: [FindingKey: Int]) -> [FindingKey] {
        counts.flatMap { key, count in
            Array(repeating: key, count: max(0, count - (other[key] ?? 0)))
        }.sorted()
    }
}
