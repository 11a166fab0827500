import SCLMArchive
import SCLMCore
import SCLMTestSupport
import Testing

@testable import SCLMCommands

/// How `validate --format junit` reports the RENDER rules: a test case per rule once slides were rendered,
/// a `<failure>` for an error, the finding in `<system-out>` for a warning. The findings themselves come
/// from a real browser in ValidateRenderTests (through the binary, in JSON); this checks their JUnit form.
@Suite(.tags(.small)) struct JUnitReportTests {
    static let renderRules: [Rule] = [
        .renderConsoleError, .renderLoadFailed, .renderRemote, .renderBridgeError, .renderTimeout, .renderJSError,
    ]

    static func xml(_ findings: [Finding], rendered: Bool, strict: Bool = false) -> String {
        let report = PackageReport(path: "deck", kind: .folder, findings: findings, entryCount: 3, byteCount: 10)
        let outcome = ValidationOutcome(path: "deck", report: report, readError: nil, seconds: 0.5)
        return JUnitReport(outcomes: [outcome], strict: strict, rendered: rendered).xml
    }

    @Test(arguments: renderRules) func aRenderFindingIsAFailureWhenAnErrorAndOutputWhenAWarning(_ rule: Rule) {
        let xml = Self.xml([Finding(rule, path: "slide1.html", message: "what the page did")], rendered: true)
        #expect(xml.contains(#"<testcase name="\#(rule.id)""#))
        let failure = xml.contains(#"<failure type="\#(rule.id)""#)
        #expect(failure == (rule.severity == .error), "\(xml)")
        if rule.severity != .error { #expect(xml.contains("<system-out>slide1.html"), "\(xml)") }
        let strict = Self.xml([Finding(rule, path: "slide1.html", message: "x")], rendered: true, strict: true)
        #expect(strict.contains(#"<failure type="\#(rule.id)""#), "--strict fails warnings too")
    }

    @Test func theRenderRulesAreListedOnlyWhenTheSlidesWereRendered() {
        let unrendered = Self.xml([], rendered: false)
        let rendered = Self.xml([], rendered: true)
        for rule in Self.renderRules {
            #expect(!unrendered.contains(#"<testcase name="\#(rule.id)""#))
            #expect(rendered.contains(#"<testcase name="\#(rule.id)""#))
        }
    }
}
