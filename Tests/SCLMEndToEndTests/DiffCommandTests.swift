import Foundation
import SCLMTestSupport
import Testing

#if canImport(FoundationXML)
    import FoundationXML
#endif

/// `sclm diff OLD NEW` driven through the built binary, on two revisions of the Cardiora sample deck built at
/// test time: exactly the slides and files that changed, the edited words, and diff(1)'s exit status.
@Suite(.tags(.large)) struct DiffCommandTests {
    /// The two revisions of a review: OLD is the sample deck with a stylesheet shared by two slides; NEW edits
    /// a claim, replaces an image, adds, removes and renames a slide and changes the shared stylesheet.
    struct Revisions {
        let old: String
        let new: String
    }

    static func cardiora() throws -> String { try SampleContent.assembledPath + "/cardiora-detail-aid" }

    static func revisions(in folder: TemporaryDirectory) throws -> Revisions {
        let files = FileManager.default
        let old = folder.appending("old")
        let new = folder.appending("new")
        try files.copyItem(atPath: try cardiora(), toPath: old)
        try folder.write("h2 { color: #123 }\n", to: "old/css/slides.css")
        for slide in ["index.html", "efficacy.html"] {
            try edit(old + "/" + slide, "<link rel=\"stylesheet\" href=\"css/deck.css\">") {
                $0 + "\n  <link rel=\"stylesheet\" href=\"css/slides.css\">"
            }
        }
        try files.copyItem(atPath: old, toPath: new)
        try edit(new + "/efficacy.html", "−15.2 mmHg systolic") { _ in "−16.0 mmHg systolic" }
        try files.removeItem(atPath: new + "/img/pack.png")
        try files.copyItem(atPath: new + "/img/logo.png", toPath: new + "/img/pack.png")
        try folder.write(
            "<html><head><link rel=\"stylesheet\" href=\"css/deck.css\"></head><body><h1>Summary</h1></body></html>",
            to: "new/summary.html")
        try files.removeItem(atPath: new + "/references.html")
        try files.moveItem(atPath: new + "/dosage.html", toPath: new + "/posology.html")
        try folder.write("h2 { color: #456 }\n", to: "new/css/slides.css")
        return Revisions(old: old, new: new)
    }

    /// Replaces the one occurrence of `text` in the file at `path` with `replacement(text)`.
    private static func edit(_ path: String, _ text: String, _ replacement: (String) -> String) throws {
        let content = try String(contentsOfFile: path, encoding: .utf8)
        #expect(content.components(separatedBy: text).count == 2, "\(path) holds '\(text)' once")
        try content.replacingOccurrences(of: text, with: replacement(text)).write(
            toFile: path, atomically: false, encoding: .utf8)
    }

    @Test func jsonListsExactlyWhatChanged() async throws {
        let folder = TemporaryDirectory()
        let revisions = try Self.revisions(in: folder)
        let result = try await ProcessRunner.sclm([
            "diff", "--no-render", "--format", "json", revisions.old, revisions.new,
        ])
        #expect(result.status == 1, "\(result)")
        #expect(result.stdoutLines.count == 1, "one compact line")
        let document = try #require(try result.json() as? [String: Any])
        #expect(document["version"] as? Int == 1)
        #expect(document["changed"] as? Bool == true)
        let slides = try #require(document["slides"] as? [[String: Any]])
        let kinds = slides.map { "\($0["kind"] as? String ?? "?") \($0["name"] as? String ?? "?")" }
        #expect(
            kinds == [
                "changed index.html", "changed efficacy.html", "renamed posology.html", "unchanged safety.html",
                "added summary.html", "removed references.html",
            ])
        func files(_ name: String) -> [String] {
            let slide = slides.first { $0["name"] as? String == name }
            let files = slide?["files"] as? [[String: Any]] ?? []
            return files.map { "\($0["kind"] as? String ?? "?") \($0["path"] as? String ?? "?")" }
        }
        #expect(files("index.html") == ["changed css/slides.css", "changed img/pack.png"])
        #expect(files("efficacy.html") == ["changed css/slides.css", "changed efficacy.html"])
        #expect(slides.first { $0["name"] as? String == "posology.html" }?["oldName"] as? String == "dosage.html")
        let efficacy = try #require(slides.first { $0["name"] as? String == "efficacy.html" })
        let words = try #require(efficacy["words"] as? [[String: String]])
        #expect(
            words == [
                ["kind": "deleted", "text": "−15.2", "element": "h2"],
                ["kind": "inserted", "text": "−16.0", "element": "h2"],
            ])
        let index = try #require(slides.first { $0["name"] as? String == "index.html" })
        #expect((index["words"] as? [Any])?.isEmpty == true, "an image and a stylesheet change no words")
        #expect((document["otherFiles"] as? [Any])?.isEmpty == true)
        let findings = try #require(document["findings"] as? [String: [[String: Any]]])
        #expect(findings["gone"]?.isEmpty == true)
        let new = findings["new"] ?? []
        #expect(!new.isEmpty, "links to the removed and renamed slides now dangle")
        for finding in new {
            let message = finding["message"] as? String ?? ""
            #expect(["efficacy.html", "safety.html"].contains(finding["path"] as? String), "\(finding)")
            #expect(message.contains("dosage.html") || message.contains("references.html"), "\(finding)")
        }
        let summary = try #require(document["summary"] as? [String: Int])
        #expect(summary["slides"] == 6 && summary["changed"] == 2 && summary["newFindings"] == new.count)
    }

    @Test func textShowsTheSummaryFilesAndEditedWords() async throws {
        let folder = TemporaryDirectory()
        let revisions = try Self.revisions(in: folder)
        let result = try await ProcessRunner.sclm(["diff", "--no-render", revisions.old, revisions.new])
        #expect(result.status == 1, "\(result)")
        let lines = result.stdoutLines
        #expect(
            lines.first?.hasPrefix("6 slides: 1 added, 1 removed, 1 renamed, 2 changed, 1 unchanged; findings: ")
                == true, "\(result)")
        #expect(lines.first?.hasSuffix(" new, 0 gone") == true)
        #expect(lines.contains("renamed  dosage.html → posology.html"))
        #expect(lines.contains("    - \"−15.2\" in h2"))
        #expect(lines.contains("    + \"−16.0\" in h2"))
        #expect(lines.contains { $0.hasPrefix("  changed img/pack.png (1.8 KiB → ") })
        #expect(
            !lines.contains { $0.contains("safety.html") && !$0.hasPrefix("  ") }, "unchanged slides are not listed")

        let markdown = try await ProcessRunner.sclm([
            "diff", "--no-render", "--format", "markdown", revisions.old, revisions.new,
        ])
        #expect(markdown.status == 1)
        #expect(markdown.stdout.contains("| `dosage.html` → `posology.html` | renamed |"))
        #expect(markdown.stdout.contains("- inserted `−16.0` in `h2`"))
    }

    @Test func identicalDecksAndAZipAgainstItsFolderHaveNoChanges() async throws {
        let folder = TemporaryDirectory()
        let cardiora = try Self.cardiora()
        var zip = ZipBuilder()
        try zip.folder(contentsOf: cardiora)
        try zip.write(to: folder.appending("cardiora.zip"))
        for pair in [[cardiora, cardiora], [folder.appending("cardiora.zip"), cardiora]] {
            let result = try await ProcessRunner.sclm(["diff"] + pair)
            #expect(result.status == 0, "\(result)")
            #expect(
                result.stdoutLines == [
                    "5 slides: 0 added, 0 removed, 0 renamed, 0 changed, 5 unchanged; "
                        + "findings: 0 new, 0 gone", "no changes",
                ])
        }
        let json = try await ProcessRunner.sclm([
            "--json", "diff", "--no-render", folder.appending("cardiora.zip"), cardiora,
        ])
        #expect(json.status == 0)
        #expect((try json.json() as? [String: Any])?["changed"] as? Bool == false)
    }

    /// `--format junit` as a content CI gate: a failing case per changed slide, passing ones for the
    /// unchanged; `--accept-changes` lets the reviewed changes through (exit 0 once all are), and names an
    /// entry that matches no change.
    @Test func junitFailsEachChangeUntilTheReviewAcceptsIt() async throws {
        let folder = TemporaryDirectory()
        let revisions = try Self.revisions(in: folder)
        let gate = try await ProcessRunner.sclm([
            "diff", "--no-render", "--format", "junit", revisions.old, revisions.new,
        ])
        #expect(gate.status == 1, "\(gate)")
        let cases = try JUnitCases(gate.stdout)
        #expect(
            cases.failed == [
                "findings/new findings", "slides/efficacy.html", "slides/index.html", "slides/posology.html",
                "slides/references.html", "slides/summary.html",
            ], "\(gate.stdout)")
        #expect(cases.passed.contains("slides/safety.html") && cases.passed.contains("files/other files"))
        #expect(gate.stdout.contains("−15.2") && gate.stdout.contains("−16.0"), "the edited claim is named")

        let partly = try folder.write("# reviewed in MR 12\nindex.html\nefficacy.html  # new figure\n", to: "some")
        let some = try await ProcessRunner.sclm(
            ["diff", "--no-render", "--format", "junit", "--accept-changes", partly, revisions.old, revisions.new])
        #expect(some.status == 1)
        #expect(try JUnitCases(some.stdout).failed.count == 4, "\(some.stdout)")
        #expect(some.stdout.contains("accepted: changed"))

        let everything =
            ["index.html", "efficacy.html", "posology.html", "summary.html", "references.html"]
            + cases.findingRules.map { "finding " + $0 } + ["stale.html", "finding HTML-NOT-THERE"]
        let all = try folder.write(everything.joined(separator: "\n"), to: "all")
        let accepted = try await ProcessRunner.sclm(
            ["diff", "--no-render", "--format", "junit", "--accept-changes", all, revisions.old, revisions.new])
        #expect(accepted.status == 0, "\(accepted)")
        #expect(try JUnitCases(accepted.stdout).failed == [])
        #expect(accepted.stderr.contains("accepts 'stale.html', which did not change"), "\(accepted.stderr)")
        #expect(accepted.stderr.contains("accepts 'finding HTML-NOT-THERE'"))
        let text = try await ProcessRunner.sclm([
            "diff", "--no-render", "--accept-changes", all, revisions.old, revisions.new,
        ])
        #expect(text.status == 0 && text.stdout.contains("changed"), "the report still shows every change")
        let missing = try await ProcessRunner.sclm(
            ["diff", "--no-render", "--accept-changes", folder.appending("none"), revisions.old, revisions.new])
        #expect(missing.status == 74 && missing.stderr.contains("cannot read the accepted changes"), "\(missing)")
    }

    /// The test cases of a JUnit report, as `classname/name`, by outcome (parsed with Foundation's XMLParser).
    struct JUnitCases {
        private(set) var passed: [String] = []
        private(set) var failed: [String] = []
        /// The rules of the findings the `new findings` case lists.
        private(set) var findingRules: [String] = []

        init(_ xml: String) throws {
            let document = try XMLDocument(xmlString: xml)
            for node in try document.nodes(forXPath: "//testcase") {
                guard let element = node as? XMLElement else { continue }
                let name =
                    (element.attribute(forName: "classname")?.stringValue ?? "") + "/"
                    + (element.attribute(forName: "name")?.stringValue ?? "")
                let failure = element.elements(forName: "failure").first
                if failure != nil { failed.append(name) } else { passed.append(name) }
                if name == "findings/new findings" {
                    findingRules = (failure?.stringValue ?? "").split(separator: "\n").compactMap {
                        $0.split(separator: " ").dropFirst().first.map(String.init)
                    }
                }
            }
            failed.sort()
        }
    }

    @Test func aHostileOrMissingPackageIsAnError() async throws {
        let folder = TemporaryDirectory()
        let cardiora = try Self.cardiora()
        let slip = try #require(HostileArchive.all.first { $0.rule == "PATH-TRAVERSAL" })
        try await slip.write(to: folder.appending("slip.zip"))
        let refused = try await ProcessRunner.sclm(["diff", "--no-render", cardiora, folder.appending("slip.zip")])
        #expect(refused.status == 2, "\(refused)")
        #expect(refused.stderr.contains("refused: PATH-TRAVERSAL"))
        #expect(refused.stdout.isEmpty)
        #expect(!FileManager.default.fileExists(atPath: folder.appending("evil.html")))
        let refusedJSON = try await ProcessRunner.sclm([
            "--json", "diff", "--no-render", folder.appending("slip.zip"), cardiora,
        ])
        #expect(refusedJSON.status == 2)
        let error = try #require((try refusedJSON.json() as? [String: Any])?["error"] as? [String: Any])
        #expect(error["exitCode"] as? Int == 2 && error["category"] as? String == "archive", "\(error)")

        let overBudget = try await ProcessRunner.sclm(["diff", "--no-render", "--max-entries", "3", cardiora, cardiora])
        #expect(overBudget.status == 2, "\(overBudget)")
        #expect(overBudget.stderr.contains("refused: BUDGET-ENTRY-COUNT"))

        let missing = try await ProcessRunner.sclm(["diff", "--no-render", cardiora, folder.appending("nothing.zip")])
        #expect(missing.status == 74, "\(missing)")
        let usage = try await ProcessRunner.sclm(["diff", "--no-render", cardiora])
        #expect(usage.status == 64)
        #expect(usage.stderr.contains("missing <new>"))
    }
}
