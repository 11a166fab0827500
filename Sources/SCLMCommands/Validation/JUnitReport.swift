import Foundation
import SCLMArchive
import SCLMCore
import SCLMPlayer

/// `sclm validate --format junit`: JUnit XML as GitLab, Jenkins and GitHub test reporters read it.
///
/// One `<testsuite>` per package and, in it, one `<testcase>` per rule (all rules, so a CI history shows
/// which rules a package passed; the `RENDER-*` rules only when `--render` ran), each with a `class` property (`safety` or `content`). A rule with error
/// findings has a `<failure>` listing them; warnings are failures only under `--strict`, otherwise they
/// appear in the test case's `<system-out>`. A package
/// that cannot be read is a suite with one `read` test case carrying an `<error>`; one whose render a signal
/// cut short has a `render` test case carrying an `<error type="cancelled">`. Text that came from the
/// package or the page (paths, messages) shows unsafe characters escaped, as the text report does
/// (``TerminalText/escaping(_:)``), so a report viewer never renders a forged line or reversed text.
struct JUnitReport {
    let outcomes: [ValidationOutcome]
    let strict: Bool
    /// Whether the slides were rendered (the `RENDER-*` rules were checked).
    var rendered = false

    private var rules: [Rule] { rendered ? Rule.all : Rule.all.filter { $0.group != .render } }

    var xml: String {
        let suites = outcomes.map(suite)
        let tests = suites.reduce(0) { $0 + $1.tests }
        let failures = suites.reduce(0) { $0 + $1.failures }
        let errors = suites.reduce(0) { $0 + $1.errors }
        let time = outcomes.reduce(0) { $0 + $1.seconds }
        var lines = [
            #"<?xml version="1.0" encoding="UTF-8"?>"#,
            #"<testsuites name="sclm validate" tests="\#(tests)" failures="\#(failures)" errors="\#(errors)" time="\#(Self.format(time))">"#,
        ]
        lines += suites.flatMap(\.lines)
        lines.append("</testsuites>")
        return lines.joined(separator: "\n") + "\n"
    }

    private struct Suite {
        var tests = 0
        var failures = 0
        var errors = 0
        var lines: [String] = []
    }

    private func suite(_ outcome: ValidationOutcome) -> Suite {
        let name = Self.text(outcome.path)
        let time = Self.format(outcome.seconds)
        guard let report = outcome.report else {
            let message = Self.text(outcome.readError ?? "unreadable")
            return Suite(
                tests: 1, errors: 1,
                lines: [
                    #"  <testsuite name="\#(name)" tests="1" failures="0" errors="1" skipped="0" time="\#(time)">"#,
                    #"    <testcase name="read" classname="\#(name)" time="\#(time)">"#,
                    #"      <error type="unreadable" message="\#(message)">\#(message)</error>"#,
                    "    </testcase>", "  </testsuite>",
                ])
        }
        var suite = Suite(tests: rules.count)
        var cases: [String] = []
        for rule in rules {
            let findings = report.findings.filter { $0.rule == rule }
            let fails = !findings.isEmpty && (rule.severity == .error || strict)
            if fails { suite.failures += 1 }
            cases += testCase(rule, findings: findings, fails: fails, classname: name)
        }
        if let slides = outcome.slides {
            suite.tests += 1
            cases += slidesCase(slides, classname: name)
            if !slides.allRendered { suite.failures += 1 }
        }
        if outcome.cancelled {
            let message = "the render was interrupted (SIGINT or SIGTERM): its findings are incomplete"
            suite.tests += 1
            suite.errors = 1
            cases += [
                #"    <testcase name="render" classname="\#(name)" time="0">"#,
                #"      <error type="cancelled" message="\#(message)">\#(message)</error>"#, "    </testcase>",
            ]
        }
        suite.lines =
            [
                #"  <testsuite name="\#(name)" tests="\#(suite.tests)" failures="\#(suite.failures)" errors="\#(suite.errors)" skipped="0" time="\#(time)">"#
            ]
            + cases + ["  </testsuite>"]
        return suite
    }

    /// The `slides` test case: every slide's status; a failure unless all were rendered.
    private func slidesCase(_ slides: SlideTally, classname: String) -> [String] {
        let body = slides.entries.map { entry in
            Self.text(entry.slide) + ": " + entry.status.name + (entry.status.phase.map { " (\($0.rawValue))" } ?? "")
        }.joined(separator: "\n")
        let element =
            slides.allRendered
            ? "      <system-out>\(body)</system-out>"
            : #"      <failure type="slides" message="\#(Self.escape(slides.summary))">\#(body)</failure>"#
        return [#"    <testcase name="slides" classname="\#(classname)" time="0">"#, element, "    </testcase>"]
    }

    private func testCase(_ rule: Rule, findings: [Finding], fails: Bool, classname: String) -> [String] {
        let attributes = #"name="\#(rule.id)" classname="\#(classname)" time="0""#
        let properties =
            #"      <properties><property name="class" value="\#(rule.ruleClass.rawValue)"/></properties>"#
        guard !findings.isEmpty else { return ["    <testcase \(attributes)>", properties, "    </testcase>"] }
        let body = findings.map { "\(Self.text($0.location)): \(Self.text($0.message))\nfix: \(Self.text($0.fix))" }
            .joined(separator: "\n")
        let count = ValidationSummary.plural(findings.count, rule.severity.rawValue)
        let element =
            fails
            ? #"      <failure type="\#(rule.id)" message="\#(Self.escape("\(count): \(rule.summary)"))">\#(body)</failure>"#
            : "      <system-out>\(body)</system-out>"
        return ["    <testcase \(attributes)>", properties, element, "    </testcase>"]
    }

    /// Seconds with millisecond precision, as JUnit's `time` attribute expects.
    private static func format(_ seconds: Double) -> String { String(format: "%.3f", seconds) }

    /// `value` (text from the package, the page or the file system) with unsafe characters escaped, then made
    /// safe inside XML.
    static func text(_ value: String) -> String { escape(TerminalText.escaping(value)) }

    /// `text` safe inside XML 1.0 attributes and text: markup characters as entities, characters XML cannot
    /// carry at all (control characters other than tab, newline, return) as U+FFFD.
    static func escape(_ text: String) -> String {
        var result = ""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "&": result += "&amp;"
            case "<": result += "&lt;"
            case ">": result += "&gt;"
            case "\"": result += "&quot;"
            case "'": result += "&apos;"
            case "\t", "\n", "\r": result.unicodeScalars.append(scalar)
            default:
                let value = scalar.value
                let allowed = value >= 0x20 && !(0xD800...0xDFFF).contains(value) && value != 0xFFFE && value != 0xFFFF
                result.unicodeScalars.append(allowed ? scalar : "\u{FFFD}")
            }
        }
        return result
    }
}
