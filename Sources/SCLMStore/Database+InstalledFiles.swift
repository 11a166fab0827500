import SCLMCore

/// The manifest of each presentation's installed revision (`installed_files`, with
/// `presentations.manifestRevision`, the installed revision it describes).
///
/// A manifest is known only when `manifestRevision` equals `installedRevision`: a revision installed before
/// manifests were recorded (schema version 4 and earlier) has none, and a delta update computes it from the
/// files. Rows go with their presentation (`ON DELETE CASCADE`).
extension Database {
    /// Stores `files` as the manifest of `revision` of a presentation, replacing the earlier one. Call inside
    /// ``write(_:)``, in the transaction that records the install.
    ///
    /// - Throws: ``StoreError``.
    package func replaceInstalledFiles(_ files: [ManifestEntry], presentationId: Int64, revision: Int64) throws {
        try forgetInstalledFiles(presentationId: presentationId)
        for file in files {
            try execute(
                """
                INSERT INTO installed_files(presentationId, path, size, crc32, inode, mtimeNs, ctimeNs)
                VALUES (?, ?, ?, ?, ?, ?, ?)
                """,
                [
                    presentationId, file.path, file.size, Int64(file.crc32), Int64(bitPattern: file.inode),
                    file.modifiedNanoseconds, file.changedNanoseconds,
                ])
        }
        try execute(
            "UPDATE presentations SET manifestRevision = ? WHERE presentationId = ?", [revision, presentationId])
    }

    /// Forgets a presentation's manifest (its content was deleted or replaced). Call inside ``write(_:)``.
    ///
    /// - Throws: ``StoreError``.
    package func forgetInstalledFiles(presentationId: Int64) throws {
        try execute("DELETE FROM installed_files WHERE presentationId = ?", [presentationId])
        try execute("UPDATE presentations SET manifestRevision = NULL WHERE presentationId = ?", [presentationId])
    }

    /// The manifest of a presentation's installed revision, by path: `nil` when nothing is installed or the
    /// installed revision's manifest was never recorded.
    ///
    /// - Throws: ``StoreError``.
    package func installedFiles(ofPresentation id: Int64) throws -> [ManifestEntry]? {
        let recorded = try fetchCount(
            "SELECT count(*) FROM presentations WHERE presentationId = ? AND manifestRevision = installedRevision",
            [id])
        guard recorded == 1 else { return nil }
        return try fetchAll("SELECT * FROM installed_files WHERE presentationId = ? ORDER BY path", [id])
            .map(ManifestEntry.init(row:))
    }
}
