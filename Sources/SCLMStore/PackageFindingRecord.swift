/// One finding of an installed package, stored in `package_findings` with the revision it was found in.
///
/// The store keeps what package validation said in plain values (the rule's ID, `error`/`warning`,
/// `safety`/`content`), so reading findings back needs no archive code. Encodes every key, `null` for a
/// missing path or line, with the rule class under `class`.
package struct PackageFindingRecord: Sendable, Equatable, Codable {
    /// The rule's stable ID, e.g. `REF-MISSING`.
    package var rule: String
    /// `error` or `warning`.
    package var severity: String
    /// `safety` or `content`.
    package var ruleClass: String
    /// The entry the finding is about, or `nil` for the whole package.
    package var path: String?
    /// The 1-based line in `path`, for HTML and CSS findings.
    package var line: Int64?
    /// What is wrong.
    package var message: String

    /// Creates a record.
    package init(rule: String, severity: String, ruleClass: String, path: String?, line: Int64?, message: String) {
        self.rule = rule
        self.severity = severity
        self.ruleClass = ruleClass
        self.path = path
        self.line = line
        self.message = message
    }

    /// The table findings are stored in.
    static let table = "package_findings"

    /// Reads a record from a `package_findings` row.
    ///
    /// - Throws: ``StoreError`` (`.decoding`) naming a missing or mistyped column.
    package init(row: Row) throws {
        let columns = ColumnReader(row, table: Self.table)
        self.init(
            rule: try columns.text("rule"), severity: try columns.text("severity"),
            ruleClass: try columns.text("class"),
            path: try columns.optionalText("path"), line: try columns.optionalInt64("line"),
            message: try columns.text("message"))
    }

    /// `path:line` (or the parts that exist; `(package)` for the whole package), for text output.
    package var location: String {
        switch (path, line) {
        case (let path?, let line?): "\(path):\(line)"
        case (let path?, nil): path
        case (nil, _): "(package)"
        }
    }

    private enum CodingKeys: String, CodingKey {
        case rule, severity
        case ruleClass = "class"
        case path, line, message
    }

    package func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(rule, forKey: .rule)
        try container.encode(severity, forKey: .severity)
        try container.encode(ruleClass, forKey: .ruleClass)
        try container.encode(path, forKey: .path)
        try container.encode(line, forKey: .line)
        try container.encode(message, forKey: .message)
    }
}

/// How many findings of each severity an installed package has (`{"error":N,"warning":M}` in JSON).
package struct PackageFindingCounts: Sendable, Equatable, Codable {
    package var error: Int
    package var warning: Int

    /// Creates counts.
    package init(error: Int = 0, warning: Int = 0) {
        self.error = error
        self.warning = warning
    }

    /// The counts of `findings`.
    package init(_ findings: [PackageFindingRecord]) {
        self.init(
            error: findings.count { $0.severity == "error" }, warning: findings.count { $0.severity == "warning" })
    }

    /// Errors and warnings together.
    package var total: Int { error + warning }

    /// `1 error, 2 warnings` (the parts that are not zero; `no findings` when both are), each noun after
    /// `qualifier` when one is given (`1 content error`).
    package func text(qualifier: String? = nil) -> String {
        let prefix = qualifier.map { $0 + " " } ?? ""
        let parts = [(error, "error"), (warning, "warning")].filter { $0.0 > 0 }.map { count, noun in
            "\(count) \(prefix)\(noun)\(count == 1 ? "" : "s")"
        }
        return parts.isEmpty ? "no findings" : parts.joined(separator: ", ")
    }
}
