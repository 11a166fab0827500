/// Brings a database to the newest schema this binary knows, one migration at a time.
package struct Migrator: Sendable {
    /// The migrations, in version order starting at 1 with no gaps.
    package let migrations: [Migration]

    /// Creates a migrator.
    ///
    /// - Precondition: versions are 1, 2, … in order.
    package init(migrations: [Migration]) {
        precondition(
            migrations.enumerated().allSatisfy { $0.offset + 1 == $0.element.version },
            "migrations must be numbered 1, 2, … in order")
        self.migrations = migrations
    }

    /// The schema version after all migrations.
    package var latestVersion: Int { migrations.last?.version ?? 0 }

    /// Applies every pending migration; does nothing on an up-to-date database.
    ///
    /// - Returns: the versions before and after.
    /// - Throws: ``StoreError`` (`.schemaTooNew`) when the database is newer than this binary,
    ///   (`.migrationFailed`) when a migration fails (that migration is rolled back).
    @discardableResult
    package func migrate(_ db: Database) throws -> (from: Int, to: Int) {
        let current = try db.userVersion
        guard current <= latestVersion else {
            throw StoreError(
                code: .schemaTooNew,
                message: "the database has schema version \(current) but this sclm only knows up to "
                    + "\(latestVersion); upgrade sclm or use another --home",
                path: db.path)
        }
        for migration in migrations where migration.version > current {
            try apply(migration, to: db)
        }
        return (current, latestVersion)
    }

    private func apply(_ migration: Migration, to db: Database) throws {
        do {
            try db.write { db in
                // Another process may have migrated while we waited for the write lock.
                guard try db.userVersion < migration.version else { return }
                try migration.apply(db)
                try db.execute(script: "PRAGMA user_version = \(migration.version)")
            }
        } catch let error as StoreError where error.code == .sqlite {
            throw StoreError(
                code: .migrationFailed, resultCode: error.resultCode,
                message: "migration \(migration.version) (\(migration.name)) failed: \(error.message)",
                sql: error.sql, path: db.path)
        }
    }
}

extension Migrator {
    /// sclm's schema history.
    package static let sclm = Migrator(migrations: [
        Schema.version1, Schema.version2, Schema.version3, Schema.version4, Schema.version5, Schema.version6,
    ])
}
