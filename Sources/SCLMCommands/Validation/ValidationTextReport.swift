import SCLMArchive
import SCLMCore
import SCLMPlayer

/// The human-readable `sclm validate` output: findings grouped per package, each package's verdict, and a
/// summary line. Colour (when allowed) marks severities and verdicts only.
struct ValidationTextReport {
    let outcomes: [ValidationOutcome]
    let strict: Bool
    let usesColor: Bool

    var text: TerminalText {
        var lines: [TerminalText] = []
        for outcome in outcomes {
            lines += package(outcome)
            lines.append("")
        }
        let summary = ValidationSummary(outcomes, strict: strict)
        var last: TerminalText =
            "\(ValidationSummary.plural(summary.packages, "package")) checked: \(summary.passed) passed, "
            + "\(summary.failed - summary.unreadable) failed (\(summary.countsText))"
        if summary.unreadable > 0 { last += ", \(summary.unreadable) unreadable" }
        if summary.cancelled > 0 { last += ", \(summary.cancelled) cancelled (the render was interrupted)" }
        if strict { last += ", warnings fail (--strict)" }
        lines.append(last)
        return lines.joined(separator: "\n")
    }

    /// Why a package could not be read, without repeating the path its header line names.
    static func reason(_ message: String, path: String) -> String {
        let prefix = "cannot read \(path): "
        return message.hasPrefix(prefix) ? String(message.dropFirst(prefix.count)) : message
    }

    private func package(_ outcome: ValidationOutcome) -> [TerminalText] {
        guard let report = outcome.report else {
            return [
                "\(outcome.path)",
                "  \(paint("unreadable", .red)): \(Self.reason(outcome.readError ?? "", path: outcome.path))",
            ]
        }
        let size = ByteCount.format(report.byteCount)
        var lines: [TerminalText] = ["\(report.path) (\(report.kind.rawValue), \(report.entryCount) entries, \(size))"]
        for finding in report.findings {
            let severity = paint(finding.severity.rawValue, finding.severity == .error ? .red : .yellow)
            lines.append("  \(severity) \(finding.rule.id) \(finding.location): \(finding.message)")
            lines.append("    fix: \(finding.fix)")
        }
        let counts =
            "\(ValidationSummary.plural(report.errorCount, "error")), "
            + ValidationSummary.plural(report.warningCount, "warning")
        if let slides = outcome.slides { lines.append("  \(slides.summary)") }
        let verdict =
            outcome.cancelled
            ? paint("cancelled", .red)
            : outcome.passes(strict: strict) ? paint("passed", .green) : paint("failed", .red)
        lines.append("  \(verdict): \(report.findings.isEmpty ? "no findings" : counts)")
        return lines
    }

    private enum Color: String {
        case red = "31", yellow = "33", green = "32"
    }

    /// `text` (sclm's own word) in `color` when colour is allowed; the escape codes are trusted.
    private func paint(_ text: String, _ color: Color) -> TerminalText {
        TerminalText(trusted: usesColor ? "\u{1B}[\(color.rawValue)m\(text)\u{1B}[0m" : text)
    }
}
