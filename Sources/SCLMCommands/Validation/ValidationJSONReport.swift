import SCLMArchive
import SCLMPlayer

/// The `sclm validate --format json` document (schema version 1, documented in docs/validation.md).
///
/// ```json
/// {"version":1,"strict":false,"cancelled":false,
///  "packages":[{"path":"deck.zip","kind":"zip","passed":false,"entries":12,"bytes":52011,"error":null,
///               "summary":{"errors":1,"warnings":0},
///               "findings":[{"rule":"REF-MISSING","severity":"error","path":"index.html","line":8,
///                            "message":"…","fix":"…"}],
///               "slides":null,"slideResults":null}],
///  "summary":{"packages":1,"passed":0,"failed":1,"unreadable":0,"errors":1,"warnings":0}}
/// ```
/// Every key is always present (`null` when unknown), so consumers never need optional-key checks. With
/// `--render`, `slides` counts each status (`{"total":3,"rendered":1,"timedOut":2,"crashed":0,"notReached":0}`)
/// and `slideResults` lists each slide: `{"slide":"spin.html","status":"timedOut","phase":"window","image":null}`.
struct ValidationJSONReport: Encodable {
    /// The schema version; bumped only for incompatible changes.
    static let schemaVersion = 1

    struct Package: Encodable {
        struct Counts: Encodable {
            let errors: Int
            let warnings: Int
        }

        let path: String
        let kind: String?
        let passed: Bool
        let cancelled: Bool
        let entries: Int?
        let bytes: Int64?
        let error: String?
        let summary: Counts
        let findings: [Finding]
        let slides: [String: Int]?
        let slideResults: [SlideResult]?

        private enum CodingKeys: String, CodingKey {
            case path, kind, passed, cancelled, entries, bytes, error, summary, findings, slides, slideResults
        }

        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(path, forKey: .path)
            try container.encode(kind, forKey: .kind)
            try container.encode(passed, forKey: .passed)
            try container.encode(cancelled, forKey: .cancelled)
            try container.encode(entries, forKey: .entries)
            try container.encode(bytes, forKey: .bytes)
            try container.encode(error, forKey: .error)
            try container.encode(summary, forKey: .summary)
            try container.encode(findings, forKey: .findings)
            try container.encode(slides, forKey: .slides)
            try container.encode(slideResults, forKey: .slideResults)
        }
    }

    /// One rendered slide: its status, the phase it was stuck in, its PNG (relative to the screenshots folder).
    struct SlideResult: Encodable {
        let slide: String
        let status: String
        let phase: String?
        let image: String?

        init(_ entry: SlideTally.Entry) {
            slide = entry.slide
            status = entry.status.name
            phase = entry.status.phase?.rawValue
            image = entry.image
        }

        private enum CodingKeys: String, CodingKey { case slide, status, phase, image }

        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(slide, forKey: .slide)
            try container.encode(status, forKey: .status)
            try container.encode(phase, forKey: .phase)
            try container.encode(image, forKey: .image)
        }
    }

    let version = Self.schemaVersion
    let strict: Bool
    /// Whether a signal cut the run short (exit 130): the findings are incomplete and nothing passed.
    let cancelled: Bool
    let packages: [Package]
    let summary: ValidationSummary

    /// `{"total":N,"rendered":N,"timedOut":N,"crashed":N,"notReached":N}`.
    static func counts(_ tally: SlideTally) -> [String: Int] {
        var counts = ["total": tally.entries.count]
        for (name, count) in tally.counts { counts[name] = count }
        return counts
    }

    init(outcomes: [ValidationOutcome], strict: Bool) {
        self.strict = strict
        cancelled = outcomes.contains { $0.cancelled }
        packages = outcomes.map { outcome in
            let report = outcome.report
            return Package(
                path: outcome.path, kind: report?.kind.rawValue, passed: outcome.passes(strict: strict),
                cancelled: outcome.cancelled,
                entries: report?.entryCount, bytes: report?.byteCount, error: outcome.readError,
                summary: .init(errors: report?.errorCount ?? 0, warnings: report?.warningCount ?? 0),
                findings: report?.findings ?? [], slides: outcome.slides.map(Self.counts),
                slideResults: outcome.slides?.entries.map(SlideResult.init))
        }
        summary = ValidationSummary(outcomes, strict: strict)
    }
}
