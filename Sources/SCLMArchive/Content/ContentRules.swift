/// The content rules (docs/validation.md), applied once every file of a package has been read: the start slide,
/// slide placement, references, swipe targets, storyclm.js, and empty or unreadable HTML.
struct ContentRules {
    let files: [FileFacts]
    let index: PathIndex

    /// Every content finding of the package.
    func evaluate() -> [Finding] {
        var findings = startSlideFindings()
        let scriptsCallingAPI = Set(
            files.filter { $0.kind == .script && $0.apiUseLine != nil && !Self.isStoryCLMScript($0.path) }.map(\.path))
        for file in files {
            let directory = PackagePath.directory(of: file.path)
            findings += file.references.compactMap { check($0, in: file, directory: directory) }
            findings += file.swipes.compactMap { check($0, in: file) }
            guard file.kind == .html else { continue }
            findings += htmlFindings(file)
            if let finding = storyCLMScriptFinding(file, scriptsCallingAPI: scriptsCallingAPI) {
                findings.append(finding)
            }
        }
        return findings
    }

    /// Whether a script file name is the StoryCLM bridge library (storyclm.js, storyclm-2.2.0.min.js, …).
    static func isStoryCLMScript(_ path: String) -> Bool {
        let name = PackagePath.fileName(of: path).lowercased()
        return name.contains("storyclm") && name.hasSuffix(".js")
    }

    // MARK: - Start slide and slides

    private func startSlideFindings() -> [Finding] {
        var findings: [Finding] = []
        if index.kind(of: "index.html") != .file {
            findings.append(noIndexFinding())
        }
        for file in files where file.kind == .html && file.hasSlideMarkers && file.path.contains("/") {
            findings.append(
                Finding(
                    .contentSlideNotAtRoot, path: file.path,
                    message: "'\(file.path)' has slide meta tags but is not at the package root",
                    fix: "Move it to the root as '\(PackagePath.fileName(of: file.path))' and update links to it."))
        }
        return findings
    }

    private func noIndexFinding() -> Finding {
        if let variant = index.caseVariant(of: "index.html") {
            return Finding(
                .contentNoIndex, message: "the start slide is named '\(variant)', not 'index.html'",
                fix: "Rename '\(variant)' to 'index.html' (players look it up case-sensitively).")
        }
        if let wrapped = files.first(where: {
            $0.path.split(separator: "/").count == 2 && $0.path.hasSuffix("/index.html")
        }) {
            let folder = PackagePath.directory(of: wrapped.path)
            return Finding(
                .contentNoIndex, message: "there is no index.html at the root, but there is '\(wrapped.path)'",
                fix: "Zip the contents of '\(folder)', not the folder itself, so index.html is at the root.")
        }
        return Finding(.contentNoIndex, message: "there is no index.html at the package root")
    }

    private func htmlFindings(_ file: FileFacts) -> [Finding] {
        var findings: [Finding] = []
        if file.isBlank {
            findings.append(Finding(.htmlEmpty, path: file.path, message: "the file is empty"))
        } else if let reason = file.undecodableReason {
            findings.append(Finding(.htmlUndecodable, path: file.path, message: reason))
        }
        return findings
    }

    // MARK: - References

    private func check(_ reference: Reference, in file: FileFacts, directory: String) -> Finding? {
        var quoted: String { "\(reference.attribute) '\(reference.value)'" }
        switch ReferenceTarget.classify(reference.value) {
        case .ignored:
            return nil
        case .remote:
            guard reference.kind != .navigation else { return nil }
            return Finding(
                .referenceRemote, path: file.path, line: reference.line,
                message: "\(quoted) is loaded from the network; it will not load offline")
        case .outside:
            return escapes(quoted, file: file, line: reference.line)
        case .relative(let relative):
            guard let resolved = PackagePath.resolve(relative, from: directory) else {
                return escapes(quoted, file: file, line: reference.line)
            }
            if resolved.isEmpty || index.kind(of: resolved) != nil { return nil }
            if let variant = index.caseVariant(of: resolved) {
                return Finding(
                    .referenceCaseMismatch, path: file.path, line: reference.line,
                    message: "\(quoted) matches '\(variant)' only when letter case is ignored",
                    fix: "Write the reference with the file's exact case ('\(variant)'), or rename the file.")
            }
            let target = resolved == relative ? "" : " (resolves to '\(resolved)')"
            return Finding(
                .referenceMissing, path: file.path, line: reference.line,
                message: "\(quoted)\(target) is not in the package", subject: resolved)
        }
    }

    private func escapes(_ quoted: String, file: FileFacts, line: Int) -> Finding {
        Finding(
            .referenceEscapesPackage, path: file.path, line: line,
            message: "\(quoted) points outside the package; it will not load on a device")
    }

    private func check(_ swipe: HTMLCollector.Swipe, in file: FileFacts) -> Finding? {
        guard case .relative(let relative) = ReferenceTarget.classify(swipe.target),
            let target = PackagePath.resolve(relative, from: ""), !target.isEmpty
        else { return nil }
        if index.kind(of: target) == .file { return nil }
        if let variant = index.caseVariant(of: target) {
            return Finding(
                .referenceCaseMismatch, path: file.path, line: swipe.line,
                message: "\(swipe.name) '\(swipe.target)' matches '\(variant)' only when letter case is ignored",
                fix: "Write the slide name with its exact case ('\(variant)').")
        }
        return Finding(
            .swipeTargetMissing, path: file.path, line: swipe.line,
            message: "\(swipe.name) names slide '\(swipe.target)', which is not in the package")
    }

    // MARK: - storyclm.js

    private func storyCLMScriptFinding(_ file: FileFacts, scriptsCallingAPI: Set<String>) -> Finding? {
        let scripts = file.references.filter { $0.kind == .script }
        let directory = PackagePath.directory(of: file.path)
        let callLine =
            file.apiUseLine
            ?? scripts.first { reference in
                guard case .relative(let relative) = ReferenceTarget.classify(reference.value),
                    let resolved = PackagePath.resolve(relative, from: directory)
                else { return false }
                return scriptsCallingAPI.contains(resolved)
            }?.line
        guard let callLine else { return nil }
        let loadsLibrary = scripts.contains { reference in
            guard case .relative(let relative) = ReferenceTarget.classify(reference.value) else { return false }
            return Self.isStoryCLMScript(relative)
        }
        guard !loadsLibrary else { return nil }
        return Finding(
            .storyCLMScriptMissing, path: file.path, line: callLine,
            message: "the page calls the StoryCLM API but loads no packaged storyclm.js")
    }
}
