import Foundation
import SCLMBrowser
import SCLMCore
import SCLMTestSupport
import Synchronization
import Testing

/// The `sclm diff --format html` report of the built binary, opened in a real Chromium over DevTools: its
/// summary says what the JSON report says, "changed only" hides the unchanged slides, the swipe moves, `j`
/// steps to a slide, package text shows as text, and the page asks for nothing but itself.
///
/// The report is served as the renderer serves a package (``PackageSite``, behind the browser's request
/// interception), because the browser runs as `nobody` when the tests run as root and could not read a
/// `file://` report in a temporary folder. A screenshot is kept in `.build/test-artifacts/diff-report.png`.
@Suite(.tags(.large, .chromium), .serialized, .timeLimit(.minutes(3)))
struct DiffHTMLReportChromiumTests {
    /// OLD and NEW: `index.html` edited (its new claim holds markup as text), `same.html` unchanged,
    /// `added.html` new.
    static func revisions(in folder: TemporaryDirectory) throws -> (old: String, new: String) {
        let style = "<style>body { font: 32px sans-serif; margin: 40px; }</style>"
        for revision in ["old", "new"] {
            try folder.write(
                "<html><head>\(style)</head><body><h1>Same</h1></body></html>", to: "\(revision)/same.html")
        }
        try folder.write("<html><head>\(style)</head><body><h1>Dose: 5 mg</h1></body></html>", to: "old/index.html")
        try folder.write(
            "<html><head>\(style)</head><body><h1>Dose: 10 mg &lt;script&gt;alert(\"x\")&lt;/script&gt;</h1></body></html>",
            to: "new/index.html")
        try folder.write("<html><head>\(style)</head><body><h1>Added</h1></body></html>", to: "new/added.html")
        return (folder.appending("old"), folder.appending("new"))
    }

    @Test func theReportWorksInChromiumAndLoadsNothingElse() async throws {
        let folder = TemporaryDirectory()
        let revisions = try Self.revisions(in: folder)
        let report = try await ProcessRunner.sclm(
            ["diff", "--format", "html", revisions.old, revisions.new], timeout: 150)
        #expect(report.status == 1, "\(report)")
        let json = try await ProcessRunner.sclm([
            "diff", "--format", "json", "--no-render", revisions.old, revisions.new,
        ])
        let summary = try #require((try json.json() as? [String: Any])?["summary"] as? [String: Int], "\(json)")
        try folder.write(report.stdout, to: "site/report.html")
        let site = PackageSite(root: folder.appending("site"))
        let requests = Mutex<[String]>([])
        try await Browser.withBrowser(BrowserOptions()) { browser in
            let page = try await browser.newPage()
            page.onEvent { method, params in
                guard method == "Fetch.requestPaused" else { return }
                requests.withLock { $0.append(params["request"]?["url"]?.stringValue ?? "?") }
                site.answer(params, on: page) { _ in }
            }
            try await page.navigate(to: site.url(of: "report.html"))
            try await Self.waitFor("document.readyState === 'complete'", on: page)
            try await Self.check(page, summary: summary)
            let artifacts = ProcessRunner.packageRoot + "/.build/test-artifacts"
            try FileManager.default.createDirectory(atPath: artifacts, withIntermediateDirectories: true)
            _ = try await Self.value("window.scrollTo(0, 0)", on: page)
            try await page.screenshot(deadline: .seconds(30)).write(
                to: URL(fileURLWithPath: artifacts + "/diff-report.png"))
        }
        let seen = requests.withLock { $0 }
        #expect(seen.allSatisfy { $0.hasPrefix(site.origin + "/") }, "\(seen)")
        #expect(seen.contains(site.url(of: "report.html")))
    }

    /// The page's counts, toggle, swipe, keys and text.
    static func check(_ page: BrowserPage, summary: [String: Int]) async throws {
        let counts = try await value(
            "JSON.stringify(Object.fromEntries([...document.querySelectorAll('#summary dd')]"
                + ".map((d) => [d.dataset.count, Number(d.textContent)])))", on: page)
        let shown = try JSONSerialization.jsonObject(with: Data(counts.utf8)) as? [String: Int]
        #expect(shown == summary.filter { $0.key != "slides" }, "page \(counts), JSON \(summary)")
        let unchangedShown = "String(document.querySelector('[data-kind=unchanged]').offsetParent !== null)"
        #expect(try await value(unchangedShown, on: page) == "false", "changed only at first")
        _ = try await value("document.getElementById('changed-only').click()", on: page)
        #expect(try await value(unchangedShown, on: page) == "true")
        _ = try await value("document.getElementById('changed-only').click()", on: page)
        #expect(try await value(unchangedShown, on: page) == "false")
        let swipeWidth = "String(Math.round(document.querySelector('.swipe .top').getBoundingClientRect().width))"
        _ = try await value("document.querySelector('[data-kind=changed] button[data-view=swipe]').click()", on: page)
        let before = try #require(Int(try await value(swipeWidth, on: page)))
        _ = try await value(
            "const r = document.querySelector('.swipe-position'); r.value = 20; r.dispatchEvent(new Event('input'))",
            on: page)
        let after = try #require(Int(try await value(swipeWidth, on: page)))
        #expect(before > 0 && after < before, "the swipe moved from \(before) to \(after) px")
        for _ in 0..<2 { try await page.call("Input.dispatchKeyEvent", ["type": "keyDown", "key": "j", "text": "j"]) }
        let secondShown =
            "String(document.querySelector('.slide.current') === "
            + "[...document.querySelectorAll('.slide')].filter((s) => s.offsetParent !== null)[1])"
        #expect(try await value(secondShown, on: page) == "true", "j twice: the second slide shown")
        let words = try await value("document.querySelector('.words').textContent", on: page)
        #expect(words.contains("<script>alert(\"x\")</script>"), "\(words)")
        #expect(try await value("String(document.scripts.length)", on: page) == "1")
    }

    /// What `expression` gives in the page, as a string ("" for `undefined`).
    static func value(_ expression: String, on page: BrowserPage) async throws -> String {
        let result = try await page.call(
            "Runtime.evaluate", ["expression": .string(expression), "returnByValue": true])
        return result["result"]?["value"]?.stringValue ?? ""
    }

    /// Waits until `condition` holds in the page, polling with a deadline.
    static func waitFor(_ condition: String, on page: BrowserPage) async throws {
        let deadline = ContinuousClock.now + .seconds(30)
        while try await value("String(\(condition))", on: page) != "true" {
            try #require(ContinuousClock.now < deadline, "\(condition) within 30 s")
            try await Task.sleep(for: .milliseconds(20))
        }
    }
}
