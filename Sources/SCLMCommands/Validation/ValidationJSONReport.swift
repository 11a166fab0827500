import SCLMArchive

/// The `sclm validate --format json` document (schema version 1, documented in docs/validation.md).
///
/// ```json
/// {"version":1,"strict":false,"cancelled":false,
///  "packages":[{"path":"deck.zip","kind":"zip","passed":false,"entries":12,"bytes":52011,"error":null,
///               "summary":{"errors":1,"warnings":0},
///               "findings":[{"rule":"REF-MISSING","severity":"error","path":"index.html","line":8,
///                            "message":"…","fix":"…"}]}],
///  "summary":{"packages":1,"passed":0,"failed":1,"unreadable":0,"errors":1,"warnings":0}}
/// ```
/// Every key is always present (`null` when unknown), so consumers never need optional-key checks.
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

        private enum CodingKeys: String, CodingKey {
            case path, kind, passed, cancelled, entries, bytes, error, summary, findings
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
        }
    }

    let version = Self.schemaVersion
    let strict: Bool
    /// Whether a signal cut the run short (exit 130): the findings are incomplete and nothing passed.
    let cancelled: Bool
    let packages: [Package]
    let summary: ValidationSummary

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
                findings: report?.findings ?? [])
        }
        summary = ValidationSummary(outcomes, strict: strict)
    }
}
