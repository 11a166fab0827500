/// How bad a finding is.
///
/// Errors make `sclm validate` fail; extraction refuses a package for a safety error, and for a content
/// error only under ``ContentPolicy/refuse``. Warnings are reported, and fail validation only under `--strict`.
package enum Severity: String, Sendable, Hashable, Codable, Comparable, CaseIterable {
    case error
    case warning

    package static func < (lhs: Severity, rhs: Severity) -> Bool { lhs == .error && rhs == .warning }
}

/// One problem found in a package: which rule, where (entry path and line), what and how to fix it.
///
/// `path` is the entry path inside the package, with control characters and invalid UTF-8 bytes shown
/// as escapes (`\n`, `\xFF`); it is `nil` for findings about the package as a whole. `line` is set for
/// references found in HTML and CSS (1-based).
package struct Finding: Sendable, Hashable, Encodable, CustomStringConvertible {
    /// The rule that was broken.
    package let rule: Rule
    /// The rule's severity.
    package var severity: Severity { rule.severity }
    /// The rule's class: whether the finding makes the package unsafe or only its content imperfect.
    package var ruleClass: Rule.Class { rule.ruleClass }
    /// The entry the finding is about, or `nil` for the whole package.
    package let path: String?
    /// The 1-based line in `path`, for HTML and CSS findings.
    package let line: Int?
    /// What is wrong, naming the offending value.
    package let message: String
    /// One line saying what to do.
    package let fix: String
    /// The package path the finding is about besides its location, when it names one: the missing target of
    /// a `REF-MISSING` or a `RENDER-LOAD-FAILED`, so a render does not repeat what the static check said.
    /// Not part of any report.
    package let subject: String?

    /// Creates a finding; `fix` defaults to the rule's generic fix.
    package init(
        _ rule: Rule, path: String? = nil, line: Int? = nil, message: String, fix: String? = nil, subject: String? = nil
    ) {
        self.rule = rule
        self.path = path
        self.line = line
        self.message = message
        self.fix = fix ?? rule.fix
        self.subject = subject
    }

    /// `path:line` (or the parts that exist), for text output.
    package var location: String {
        switch (path, line) {
        case (let path?, let line?): "\(path):\(line)"
        case (let path?, nil): path
        case (nil, _): "(package)"
        }
    }

    package var description: String { "\(rule.id) \(location): \(message)" }

    private enum CodingKeys: String, CodingKey {
        case rule, severity
        case ruleClass = "class"
        case path, line, message, fix
    }

    /// Encodes every key (`null` for a missing path or line), so the JSON shape never changes.
    package func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(rule.id, forKey: .rule)
        try container.encode(severity, forKey: .severity)
        try container.encode(ruleClass, forKey: .ruleClass)
        try container.encode(path, forKey: .path)
        try container.encode(line, forKey: .line)
        try container.encode(message, forKey: .message)
        try container.encode(fix, forKey: .fix)
    }
}

extension Finding {
    /// The order findings are reported in: package-level first, then by path, line and rule.
    static func reportOrder(_ lhs: Finding, _ rhs: Finding) -> Bool {
        let left = (lhs.path ?? "", lhs.line ?? 0, lhs.rule.id)
        let right = (rhs.path ?? "", rhs.line ?? 0, rhs.rule.id)
        if (lhs.path == nil) != (rhs.path == nil) { return lhs.path == nil }
        return left < right
    }
}
