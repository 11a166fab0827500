import SCLMArchive
import SCLMCore
import SCLMPlayer

/// What `sclm validate` learned about one path: a report, or why the path could not be read.
struct ValidationOutcome: Sendable {
    /// The path as given on the command line.
    let path: String
    /// The findings, when the package could be read.
    let report: PackageReport?
    /// Why the path could not be read (missing, permission denied, not a file or folder), when it could not.
    let readError: String?
    /// The category of that failure: `storage` (exit 74) or `noInput` (not a file or folder, exit 66).
    var readErrorCategory: ErrorCategory? = nil
    /// How long validation took, in seconds (JUnit `time`).
    let seconds: Double
    /// Whether a signal cut its render short: its findings are incomplete and it never passes.
    var cancelled = false
    /// Each slide and its status, when `--render` listed the package's slides.
    var slides: SlideTally? = nil

    /// Whether the package passes under `strict`: never when its render was cancelled or left a slide
    /// unrendered.
    func passes(strict: Bool) -> Bool {
        !cancelled && (slides?.allRendered ?? true) && (report?.passes(strict: strict) ?? false)
    }
}

/// Totals over every package of one run.
struct ValidationSummary: Encodable, Equatable {
    var packages = 0
    var passed = 0
    var failed = 0
    var unreadable = 0
    var errors = 0
    var warnings = 0
    var cancelled = 0

    init(_ outcomes: [ValidationOutcome], strict: Bool) {
        packages = outcomes.count
        for outcome in outcomes {
            if outcome.passes(strict: strict) { passed += 1 } else { failed += 1 }
            if outcome.readError != nil { unreadable += 1 }
            if outcome.cancelled { cancelled += 1 }
            errors += outcome.report?.errorCount ?? 0
            warnings += outcome.report?.warningCount ?? 0
        }
    }

    /// `3 errors, 1 warning`.
    var countsText: String { Self.plural(errors, "error") + ", " + Self.plural(warnings, "warning") }

    static func plural(_ count: Int, _ noun: String) -> String { "\(count) \(noun)\(count == 1 ? "" : "s")" }
}

extension ValidationOutcome {
    /// The same outcome after `--render`: with the rendered report (the static findings plus the render's)
    /// when the package was rendered, marked cancelled when a signal cut the render short.
    func replacing(_ rendered: PackageRenderer.Rendered) -> ValidationOutcome {
        var outcome =
            rendered.report.map { ValidationOutcome(path: path, report: $0, readError: readError, seconds: seconds) }
            ?? self
        if rendered.cancelled { outcome.cancelled = true }
        outcome.slides = rendered.slides
        return outcome
    }
}
