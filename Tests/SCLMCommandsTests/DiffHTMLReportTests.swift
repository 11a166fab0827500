import Foundation
import SCLMArchive
import SCLMTestSupport
import Testing

@testable import SCLMCommands

/// What `sclm diff --format html` writes: package text escaped, one nonce for the policy, the style sheet and
/// the script, and nothing loaded from anywhere. Chromium's view of it is in DiffHTMLReportChromiumTests.
@Suite(.tags(.medium))
struct DiffHTMLReportTests {
    /// Two revisions of one slide whose text, file name and finding hold markup: OLD says `5 mg`, NEW says
    /// `<script>alert("x")</script>` (escaped in the HTML, so it is text) and loads a missing image whose
    /// name holds `"`.
    static func hostileDiff(in folder: TemporaryDirectory) async throws -> PackageDiff {
        try folder.write("<html><body><p id=\"dose\">Take 5 mg</p></body></html>", to: "old/index.html")
        try folder.write(
            """
            <html><body><p id="dose">Take &lt;script&gt;alert("x")&lt;/script&gt; mg</p>
            <img src="img/a&quot;b<i>.png"></body></html>
            """, to: "new/index.html")
        return PackageDiff(
            old: try await PackageContents.read(folder.appending("old")),
            new: try await PackageContents.read(folder.appending("new")))
    }

    @Test func packageTextIsEscaped() async throws {
        let folder = TemporaryDirectory()
        let diff = try await Self.hostileDiff(in: folder)
        #expect(diff.slides.first?.words.contains { $0.text.contains("<script>") } == true, "\(diff.slides)")
        #expect(!diff.newFindings.isEmpty, "the missing image is a finding")
        let html = try DiffHTMLReport(diff: diff, old: "old<b>", new: "new\"").html()
        #expect(html.components(separatedBy: "<script").count == 2, "the report's own script only")
        #expect(html.contains("&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;"))
        #expect(html.contains("old&lt;b&gt;") && html.contains("new&quot;"))
        #expect(!html.contains("<i>"), "the file name's markup is text")
        #expect(!html.contains("a\"b"), "no quote from a package ends an attribute")
    }

    @Test func thePolicyAllowsOnlyTheReportsOwnStyleAndScript() async throws {
        let folder = TemporaryDirectory()
        let report = DiffHTMLReport(diff: try await Self.hostileDiff(in: folder), old: "a", new: "b")
        let html = try report.html()
        #expect(report.nonce.count == 24 && report.nonce != DiffHTMLReport.randomNonce())
        #expect(
            html.contains(
                "content=\"default-src 'none'; img-src data:; style-src 'nonce-\(report.nonce)'; "
                    + "script-src 'nonce-\(report.nonce)';"))
        #expect(
            html.contains("<script nonce=\"\(report.nonce)\">") && html.contains("<style nonce=\"\(report.nonce)\">"))
        #expect(!html.contains("http:") && !html.contains("https:"), "nothing names the network")
    }
}
