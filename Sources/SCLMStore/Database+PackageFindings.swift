/// The findings of each presentation's installed package (`package_findings`), kept with the revision
/// they belong to (`presentations.findingsRevision`).
///
/// Findings are known only when `findingsRevision` equals `installedRevision`: a revision installed
/// before they were recorded (schema version 1) has none stored, which readers report as unknown rather
/// than clean. Rows go with their presentation (`ON DELETE CASCADE`).
extension Database {
    /// Stores `findings` as those of `revision` of a presentation, replacing what was stored for an earlier
    /// revision. Call inside ``write(_:)``, in the transaction that records the install.
    ///
    /// - Throws: ``StoreError``.
    package func replacePackageFindings(_ findings: [PackageFindingRecord], presentationId: Int64, revision: Int64)
        throws
    {
        try execute("DELETE FROM package_findings WHERE presentationId = ?", [presentationId])
        for (position, finding) in findings.enumerated() {
            try execute(
                """
                INSERT INTO package_findings(presentationId, position, rule, severity, class, path, line, message)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?)
                """,
                [
                    presentationId, Int64(position), finding.rule, finding.severity, finding.ruleClass, finding.path,
                    finding.line, finding.message,
                ])
        }
        try execute(
            "UPDATE presentations SET findingsRevision = ? WHERE presentationId = ?", [revision, presentationId])
    }

    /// Forgets a presentation's stored findings (its content was deleted). Call inside ``write(_:)``.
    ///
    /// - Throws: ``StoreError``.
    package func forgetPackageFindings(presentationId: Int64) throws {
        try execute("DELETE FROM package_findings WHERE presentationId = ?", [presentationId])
        try execute("UPDATE presentations SET findingsRevision = NULL WHERE presentationId = ?", [presentationId])
    }

    /// The findings of a presentation's installed revision, in report order: `nil` when nothing is installed
    /// or the findings of the installed revision were never recorded, `[]` for a clean package.
    ///
    /// - Throws: ``StoreError``.
    package func packageFindings(ofPresentation id: Int64) throws -> [PackageFindingRecord]? {
        let recorded = try fetchCount(
            "SELECT count(*) FROM presentations WHERE presentationId = ? AND findingsRevision = installedRevision",
            [id])
        guard recorded == 1 else { return nil }
        return try fetchAll("SELECT * FROM package_findings WHERE presentationId = ? ORDER BY position", [id])
            .map(PackageFindingRecord.init(row:))
    }

    /// The finding counts of every installed presentation whose findings are recorded, clean ones included
    /// (with zero counts); presentations installed without recorded findings are absent.
    ///
    /// - Throws: ``StoreError``.
    package func packageFindingCounts() throws -> [Int64: PackageFindingCounts] {
        let rows = try fetchAll(
            """
            SELECT p.presentationId,
                   count(CASE WHEN f.severity = 'error' THEN 1 END) AS errors,
                   count(CASE WHEN f.severity = 'warning' THEN 1 END) AS warnings
            FROM presentations p LEFT JOIN package_findings f ON f.presentationId = p.presentationId
            WHERE p.findingsRevision = p.installedRevision
            GROUP BY p.presentationId
            """)
        var counts: [Int64: PackageFindingCounts] = [:]
        for row in rows {
            let columns = ColumnReader(row, table: PackageFindingRecord.table)
            counts[try columns.int64("presentationId")] = PackageFindingCounts(
                error: Int(try columns.int64("errors")), warning: Int(try columns.int64("warnings")))
        }
        return counts
    }
}
