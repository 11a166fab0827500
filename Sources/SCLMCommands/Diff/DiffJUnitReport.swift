import SCLMArchive
import SCLMCore

/// `sclm diff --format junit`: the review as JUnit XML, for a content CI's visual-regression gate.
///
/// One `<testsuite>` for the pair, with one `<testcase>` per slide of either revision (unchanged slides pass,
/// so a CI history shows every slide), one for the files outside every slide and one for the new static
/// findings. A change is a `<failure>` naming what changed, unless ``AcceptedChanges`` lists it: then the
/// case passes and says so in its `<system-out>`. Names and messages from the packages are escaped as in
/// `validate --format junit`.
struct DiffJUnitReport {
    let diff: PackageDiff
    let old: String
    let new: String
    let accepted: AcceptedChanges
    /// The compared pictures, by slide name.
    var pictures: [String: SlidePictures] = [:]

    var xml: String {
        let cases = diff.slides.map(slideCase) + [otherFilesCase, findingsCase]
        let failures = cases.count { $0.fails }
        let name = JUnitReport.text(old + " → " + new)
        let lines =
            [
                #"<?xml version="1.0" encoding="UTF-8"?>"#,
                #"<testsuites name="sclm diff" tests="\#(cases.count)" failures="\#(failures)" errors="0">"#,
                #"  <testsuite name="\#(name)" tests="\#(cases.count)" failures="\#(failures)" errors="0" skipped="0">"#,
            ] + cases.flatMap(\.lines) + ["  </testsuite>", "</testsuites>"]
        return lines.joined(separator: "\n") + "\n"
    }

    private struct Case {
        var fails = false
        var lines: [String]
    }

    private func slideCase(_ slide: PackageDiff.Slide) -> Case {
        guard slide.kind != .unchanged else { return testCase("slides", slide.name, []) }
        let files = slide.files.map { "\($0.kind.rawValue) \($0.path) (\(DiffTextReport.sizes($0)))" }
        let words = slide.words.map { "\($0.kind == .deleted ? "deleted" : "inserted") '\($0.text)' in \($0.element)" }
        let was = slide.oldName.map { ["was \($0)"] } ?? []
        let pictures = self.pictures[slide.name].map { ["pictures: \($0.summary)"] } ?? []
        return change(
            "slides", slide.name, summary: slide.kind.rawValue, body: was + files + words + pictures,
            accepted: accepted.accepts(slide))
    }

    private var otherFilesCase: Case {
        let files = diff.otherFiles.map { "\($0.kind.rawValue) \($0.path) (\(DiffTextReport.sizes($0)))" }
        guard !files.isEmpty else { return testCase("files", "other files", []) }
        return change(
            "files", "other files", summary: "\(files.count) changed outside every slide", body: files,
            accepted: diff.otherFiles.allSatisfy(accepted.accepts))
    }

    private var findingsCase: Case {
        let findings = diff.newFindings.map { "\($0.severity) \($0.rule) \($0.path ?? "(package)"): \($0.message)" }
        guard !findings.isEmpty else { return testCase("findings", "new findings", []) }
        return change(
            "findings", "new findings", summary: "\(findings.count) new", body: findings,
            accepted: diff.newFindings.allSatisfy(accepted.accepts))
    }

    /// A case for a change: a failure, or passing with `accepted:` in its output when the review accepted it.
    private func change(_ classname: String, _ name: String, summary: String, body: [String], accepted: Bool) -> Case {
        let text = body.map(JUnitReport.text).joined(separator: "\n")
        guard !accepted else {
            return testCase(
                classname, name, ["      <system-out>accepted: \(JUnitReport.text(summary))\n\(text)</system-out>"])
        }
        var failed = testCase(
            classname, name,
            [#"      <failure type="\#(classname)" message="\#(JUnitReport.text(summary))">\#(text)</failure>"#])
        failed.fails = true
        return failed
    }

    private func testCase(_ classname: String, _ name: String, _ inner: [String]) -> Case {
        let open = #"    <testcase name="\#(JUnitReport.text(name))" classname="\#(classname)" time="0""#
        guard !inner.isEmpty else { return Case(lines: [open + "/>"]) }
        return Case(lines: [open + ">"] + inner + ["    </testcase>"])
    }
}
