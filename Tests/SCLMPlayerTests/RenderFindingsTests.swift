import SCLMArchive
import SCLMBrowser
import SCLMCore
import SCLMTestSupport
import Testing

@testable import SCLMPlayer

/// What a page did while it rendered, as `RENDER-*` findings located at the slide.
@Suite(.tags(.small)) struct RenderFindingsTests {
    /// The package path of a script URL: `https://package.sclm.invalid/<path>` is the package's, others are not.
    static func source(_ url: String?) -> String? {
        guard let url, url.hasPrefix("https://package.sclm.invalid/") else { return nil }
        return String(url.dropFirst("https://package.sclm.invalid/".count))
    }

    static func finding(_ issue: PageIssue, slide: String = "index.html") -> Finding? {
        RenderFindings.finding(for: issue, slide: slide, source: Self.source)
    }

    @Test func eachIssueBecomesItsRuleAtTheSlide() {
        let cases: [(PageIssue, Rule, String)] = [
            (
                .missingFile(url: "https://package.sclm.invalid/a.js", path: "a.js"), .renderLoadFailed,
                "requested a.js, which the package lacks (404)"
            ),
            (
                .remoteRequest(url: "http://example.com/x"), .renderRemote,
                "requested http://example.com/x; refused (no network on a tablet)"
            ),
            (.dialog(type: "confirm", message: "Sure?", answered: true), .renderDialog, "confirm: Sure? (answered OK)"),
            (
                .tooLarge(url: "u", path: "video.mp4", size: 40 << 20, limit: 32 << 20), .renderTooLarge,
                "requested video.mp4 (40 MiB) without Range; whole answers stop at 32 MiB, so it was answered 413"
            ),
            (
                .messagesCut(count: 7, bytes: 900), .renderConsoleError,
                "7 more page messages (900 bytes) were cut: a slide reports at most "
                    + "\(MessageBudget.maximumIssues) messages and \(MessageBudget.maximumBytes >> 10) KiB"
            ),
        ]
        for (issue, rule, message) in cases {
            let finding = Self.finding(issue, slide: "b.html")
            let subject: String? = if case .missingFile(_, let path) = issue { path } else { nil }
            #expect(finding == Finding(rule, path: "b.html", message: message, subject: subject), "\(issue)")
        }
    }

    /// Navigation is only noted; a crash is the slide's status, whose one finding the renderer adds.
    @Test func navigationAndCrashesAreNotFindingsOfTheirOwn() {
        #expect(Self.finding(.navigation(command: "go", data: ["slide": "b.html"])) == nil)
        #expect(Self.finding(.crashed(reason: "the renderer crashed")) == nil)
    }

    /// An error in the slide's own file keeps its line; one in another script names that file and line.
    @Test func errorsAreLocatedAtTheSlideOrNameTheirScript() {
        let own = PageIssue.uncaughtError(
            message: "Uncaught TypeError: x", url: "https://package.sclm.invalid/index.html", line: 12)
        #expect(
            Self.finding(own) == Finding(.renderJSError, path: "index.html", line: 12, message: "Uncaught TypeError: x")
        )
        let script = PageIssue.consoleError(message: "boom", url: "https://package.sclm.invalid/js/app.js", line: 3)
        #expect(
            Self.finding(script)
                == Finding(.renderConsoleError, path: "index.html", message: "console.error: boom (at js/app.js:3)"))
        let noLine = PageIssue.uncaughtError(message: "x", url: "https://package.sclm.invalid/js/app.js", line: nil)
        #expect(Self.finding(noLine)?.message == "x (at js/app.js)")
        let elsewhere = PageIssue.uncaughtError(message: "x", url: "https://cdn.example/lib.js", line: 9)
        #expect(Self.finding(elsewhere) == Finding(.renderJSError, path: "index.html", line: 9, message: "x"))
    }

    /// A bridge error's `sclm config set` advice becomes the `--config` a render reads.
    @Test func bridgeErrorsGiveTheRendersAdvice() {
        let issue = PageIssue.bridgeError(
            command: "osamversioncontrol", code: 503,
            message: "OSAM needs osam.versionCode: set it with `sclm config set osam.versionCode 100`")
        #expect(
            Self.finding(issue)
                == Finding(
                    .renderBridgeError, path: "index.html",
                    message: "osamversioncontrol answered 503: OSAM needs osam.versionCode: set it with "
                        + "`--config osam.versionCode=100` (or --home-settings)"))
    }

    /// A file a static `REF-MISSING` names is not reported again when a slide requests it; other missing
    /// files and other findings are.
    @Test func aLoadFailureAStaticFindingExplainsIsDropped() {
        let explained = Finding(
            .referenceMissing, path: "index.html", line: 8, message: "'img/a.png' is not in the package",
            subject: "img/a.png")
        let render = [
            Self.finding(.missingFile(url: "https://package.sclm.invalid/img/a.png", path: "img/a.png")),
            Self.finding(.missingFile(url: "https://package.sclm.invalid/data.json", path: "data.json")),
            Self.finding(.uncaughtError(message: "x", url: nil, line: nil)),
        ].compactMap { $0 }
        let kept = PackageRenderer.renderFindings(render, explainedBy: [explained])
        #expect(kept.map(\.rule) == [.renderLoadFailed, .renderJSError])
        #expect(kept.first?.subject == "data.json")
    }
}
