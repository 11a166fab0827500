/// One numbered schema change.
///
/// Migrations are applied in version order, each in its own `BEGIN IMMEDIATE` transaction together with
/// `PRAGMA user_version = version`, so a crash leaves the database at the previous or the next version.
package struct Migration: Sendable {
    /// The `user_version` the database has after this migration (1, 2, …).
    package let version: Int
    /// A short name for logs and errors.
    package let name: String
    let apply: @Sendable (Database) throws -> Void

    /// Declares a migration that runs `apply` inside its transaction.
    package init(version: Int, name: String, apply: @escaping @Sendable (Database) throws -> Void) {
        self.version = version
        self.name = name
        self.apply = apply
    }

    /// Declares a migration that runs a SQL script.
    package init(version: Int, name: String, sql: String) {
        self.init(version: version, name: name) { db in try db.execute(script: sql) }
    }
}
