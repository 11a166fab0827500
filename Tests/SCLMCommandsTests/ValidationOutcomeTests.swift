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
}
