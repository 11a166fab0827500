import SCLMArchive
import SCLMCore
import SCLMPlayer
import SCLMTestSupport
import Testing

@testable import SCLMCommands

/// How `validate --render` folds what the renderer made of each package into the outcomes it reports.
@Suite(.tags(.small)) struct ValidationOutcomeTests {
    static let report = PackageReport(path: "deck.zip", kind: .zip, findings: [], entryCount: 3, byteCount: 10)
    static let outcome = ValidationOutcome(path: "deck.zip", report: report, readError: nil, seconds: 0.5)

    @Test func aRenderedReportReplacesTheStaticOne() {
        let finding = Finding(.renderJSError, path: "index.html", message: "x")
        let rendered = PackageReport(
            path: "deck.zip", kind: .zip, findings: [finding], entryCount: 3, byteCount: 10)
        let outcome = Self.outcome.replacing(PackageRenderer.Rendered(report: rendered))
        #expect(outcome.report == rendered && outcome.seconds == 0.5 && !outcome.cancelled)
        #expect(!outcome.passes(strict: false), "a render error fails the package")
    }

    @Test func aPackageNotRenderedKeepsItsOutcome() {
        let unreadable = ValidationOutcome(
            path: "gone.zip", report: nil, readError: "no such file", readErrorCategory: .storage, seconds: 0)
        let outcome = unreadable.replacing(PackageRenderer.Rendered())
        #expect(outcome.readError == "no such file" && outcome.readErrorCategory == .storage && !outcome.cancelled)
        #expect(Self.outcome.replacing(PackageRenderer.Rendered()).passes(strict: true))
    }

    /// A package a signal cut short never passes, whatever its static findings.
    @Test func aCancelledRenderNeverPasses() {
        let outcome = Self.outcome.replacing(PackageRenderer.Rendered(report: nil, cancelled: true))
        #expect(outcome.cancelled && outcome.report == Self.report)
        #expect(!outcome.passes(strict: false))
    }

    /// A package with a slide left unrendered never passes, even without an error finding; its counts and
    /// each slide's status are in every report.
    @Test func aSlideNotRenderedFailsThePackageInEveryReport() throws {
        let tally = SlideTally([
            .init(slide: "index.html", status: .rendered, image: "deck/index.png"),
            .init(slide: "spin.html", status: .timedOut(.window), image: nil),
        ])
        let outcome = Self.outcome.replacing(PackageRenderer.Rendered(report: Self.report, slides: tally))
        #expect(!outcome.passes(strict: false))
        let document = try JSONParser.parse(
            Array(JSONOutput.line(ValidationJSONReport(outcomes: [outcome], strict: false)).utf8))
        let json = try #require(document["packages"]?.arrayValue?.first)
        let counts: JSONValue = ["total": 2, "rendered": 1, "timedOut": 1, "crashed": 0, "notReached": 0]
        #expect(json["slides"] == counts)
        let spin: JSONValue = ["slide": "spin.html", "status": "timedOut", "phase": "window", "image": .null]
        #expect(json["slideResults"]?.arrayValue?.last == spin)
        #expect(json["passed"] == false)
        let text = ValidationTextReport(outcomes: [outcome], strict: false, usesColor: false).text.rendered
        #expect(text.contains("  2 slides: 1 rendered, 1 timed out\n  failed: no findings"), "\(text)")
        let junit = JUnitReport(outcomes: [outcome], strict: false, rendered: true).xml
        #expect(junit.contains(#"<failure type="slides" message="2 slides: 1 rendered, 1 timed out">"#), "\(junit)")
        #expect(junit.contains("spin.html: timedOut (window)"))
    }

    /// Every slide rendered: the package passes, and JUnit's slides case lists them without failing.
    @Test func everySlideRenderedPasses() {
        let tally = SlideTally([.init(slide: "index.html", status: .rendered, image: nil)])
        let outcome = Self.outcome.replacing(PackageRenderer.Rendered(report: Self.report, slides: tally))
        #expect(outcome.passes(strict: true))
        let junit = JUnitReport(outcomes: [outcome], strict: false, rendered: true).xml
        #expect(junit.contains("<system-out>index.html: rendered</system-out>") && !junit.contains("<failure"))
    }
}
