import SCLMCore

/// What `sclm diff` compares of one revision of a package: every file with its size and SHA-256, the local
/// files each HTML and CSS file loads, the bytes of the HTML files, the slides and the static findings.
///
/// It is read in one pass with the validator's readers and policy (``ZipScanner``, ``FolderScanner``): a
/// zip is streamed from its central directory, never unpacked, and a package that breaks a rule the policy
/// refuses is refused like an extraction refuses it. Nothing is written to disk.
package struct PackageContents: Sendable {
    /// The validation report of the revision (its static findings).
    package let report: PackageReport
    /// Every file read completely, by package path.
    package let files: [String: PackageFile]
    /// For each HTML and CSS file, the package paths it loads (stylesheets, `@import`, scripts, images,
    /// `srcset` candidates, fonts, media): the references of the REF-MISSING rule, links followed by a tap
    /// (`<a href>`) left out.
    package let loads: [String: [String]]
    /// The bytes of every HTML file, by package path.
    package let html: [String: [UInt8]]

    /// The slides, as `validate --render` lists them (``PackageContents/slides(among:)``).
    package var slides: [String] { Self.slides(among: Array(files.keys)) }

    /// Reads the zip or folder at `path` under `policy`.
    ///
    /// - Throws: ``ArchiveError``: ``ArchiveError/Code/refused`` when the package breaks a rule `policy`
    ///   refuses, ``ArchiveError/Code/unreadable`` or ``ArchiveError/Code/notFileOrFolder`` as
    ///   ``PackageValidator/validate(_:)``; `CancellationError`.
    package static func read(_ path: String, policy: Policy = .standard) async throws -> PackageContents {
        try await BlockingWork.run("sclm.diff") { cancellation in
            try read(path, policy: policy, cancellation: cancellation)
        }
    }

    /// ``read(_:policy:)`` on the calling thread.
    package static func read(_ path: String, policy: Policy, cancellation: CancellationFlag) throws
        -> PackageContents
    {
        var sink = DigestSink()
        let (report, scan) = try PackageValidator(policy: policy).scan(path, into: &sink, cancellation: cancellation)
        if report.findings.contains(where: policy.refuses) {
            throw ArchiveError.refused(path, findings: report.findings, policy: policy)
        }
        return PackageContents(report: report, files: sink.files, loads: Self.loads(of: scan.files), html: sink.html)
    }

    /// The package paths each file loads, from the references the content rules read.
    private static func loads(of files: [FileFacts]) -> [String: [String]] {
        var loads: [String: [String]] = [:]
        for file in files {
            let directory = PackagePath.directory(of: file.path)
            loads[file.path] = file.references.compactMap { reference in
                guard reference.kind != .navigation,
                    case .relative(let relative) = ReferenceTarget.classify(reference.value)
                else { return nil }
                return PackagePath.resolve(relative, from: directory)
            }
        }
        return loads
    }

    /// The slides among package paths `paths`: the HTML files at the root, `index.html` first, then by name
    /// (the order `validate --render` renders them in).
    package static func slides(among paths: [String]) -> [String] {
        paths.filter { !$0.contains("/") && ($0.lowercased().hasSuffix(".html") || $0.lowercased().hasSuffix(".htm")) }
            .sorted { ($0 == "index.html" ? "" : $0) < ($1 == "index.html" ? "" : $1) }
    }

    /// `slide` and every file it loads, transitively (a stylesheet's `@import` and `url()`s included), that
    /// the package holds.
    package func closure(of slide: String) -> [String: PackageFile] {
        var closure: [String: PackageFile] = [:]
        var pending = [slide]
        while let path = pending.popLast() {
            guard closure[path] == nil, let file = files[path] else { continue }
            closure[path] = file
            pending += loads[path] ?? []
        }
        return closure
    }
}
