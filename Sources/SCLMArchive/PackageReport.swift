/// The result of validating one package: its findings and a few facts about it.
package struct PackageReport: Sendable, Equatable {
    /// What was validated.
    package enum Kind: String, Sendable, Codable {
        case zip, folder
    }

    /// The path as given.
    package let path: String
    package let kind: Kind
    /// Every finding, package-level first, then by entry path, line and rule.
    package let findings: [Finding]
    /// The entries in the package (files and folders).
    package let entryCount: Int
    /// The bytes of file data read (decompressed for a zip).
    package let byteCount: Int64

    /// Creates a report.
    package init(path: String, kind: Kind, findings: [Finding], entryCount: Int, byteCount: Int64) {
        self.path = path
        self.kind = kind
        self.findings = findings
        self.entryCount = entryCount
        self.byteCount = byteCount
    }

    /// The number of error findings.
    package var errorCount: Int { findings.count { $0.severity == .error } }
    /// The number of warning findings.
    package var warningCount: Int { findings.count { $0.severity == .warning } }

    /// Whether the package passes: no errors, and under `strict` no warnings either.
    package func passes(strict: Bool) -> Bool { errorCount == 0 && (!strict || warningCount == 0) }
}
