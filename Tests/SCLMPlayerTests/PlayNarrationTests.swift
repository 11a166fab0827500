import SCLMBrowser
import SCLMCore
import SCLMTestSupport
import Testing

@testable import SCLMPlayer

/// The lines `sclm play` prints in text mode as the page runs.
@Suite(.tags(.small)) struct PlayNarrationTests {
    @Test func slidesShownArePrintedOnePerLine() {
        let opened: JSONValue = [
            "Event": "presentationOpened", "Data": ["slide": "index.html", "name": "Cardiora", "presId": 101],
        ]
        #expect(PlayNarration.line(forEvent: opened)?.rendered == "slide: index.html (opened Cardiora)")
        let changed: JSONValue = [
            "Event": "slideChanged", "Data": ["slide": "efficacy.html", "previous": "index.html"],
        ]
        #expect(PlayNarration.line(forEvent: changed)?.rendered == "slide: efficacy.html")
        let opening: JSONValue = ["Event": "slideChanged", "Data": ["slide": "index.html", "previous": .null]]
        #expect(PlayNarration.line(forEvent: opening) == nil, "the opening slide is said once")
        #expect(PlayNarration.line(forEvent: ["Event": "uiChanged", "Data": [:]]) == nil)
    }

    @Test func errorsAreErrorsAndTheRestWarnings() {
        let uncaught = PageIssue.uncaughtError(message: "Uncaught Error: broken", url: "https://p/index.html", line: 3)
        #expect(
            PlayNarration.line(for: uncaught)?.rendered
                == "error: uncaught page error: Uncaught Error: broken (https://p/index.html:3)")
        let bridge = PageIssue.bridgeError(
            command: "osamversioncontrol", code: 503, message: "OSAM needs osam.endpoint")
        #expect(
            PlayNarration.line(for: bridge)?.rendered
                == "warning: bridge: osamversioncontrol answered 503: OSAM needs osam.endpoint")
        #expect(
            PlayNarration.line(for: .remoteRequest(url: "http://127.0.0.1:8080/api"))?.rendered
                == "warning: refused request to another host: http://127.0.0.1:8080/api")
        #expect(
            PlayNarration.line(for: .dialog(type: "alert", message: "Hi", answered: true))?.rendered
                == "warning: dialog alert: Hi (answered OK)")
        #expect(PlayNarration.line(for: .navigation(command: "go", data: [:])) == nil)
    }

    @Test func whatThePageSaysIsEscaped() {
        let issue = PageIssue.consoleError(message: "evil\u{1b}[2J\nforged line", url: nil, line: nil)
        let line = PlayNarration.line(for: issue)?.rendered ?? ""
        #expect(line == #"warning: console.error: evil\u{1b}[2J\u{a}forged line (?:?)"#)
        let event: JSONValue = ["Event": "slideChanged", "Data": ["slide": "a\u{7}.html"]]
        #expect(PlayNarration.line(forEvent: event)?.rendered == #"slide: a\u{7}.html"#)
    }

    /// Only uncaught errors and failed loads fail a `--fail-on-error` run.
    @Test func failOnErrorFailsOnUncaughtErrorsAndFailedLoadsOnly() {
        #expect(PageIssue.uncaughtError(message: "x", url: nil, line: nil).failure != nil)
        #expect(
            PageIssue.missingFile(url: "https://p/a.js", path: "a.js").failure
                == "failed load: a.js (the package lacks it)")
        #expect(PageIssue.bridgeError(command: "getFoo", code: 404, message: "unknown").failure == nil)
        #expect(PageIssue.remoteRequest(url: "http://example.com").failure == nil)
        #expect(PageIssue.dialog(type: "alert", message: "", answered: true).failure == nil)
    }
}
