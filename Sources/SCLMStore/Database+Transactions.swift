import CSQLite

extension Database {
    /// How a transaction takes its locks.
    package enum TransactionKind: String, Sendable {
        /// Takes the write lock at `BEGIN`, so a later write never fails with an immediate `SQLITE_BUSY`.
        case immediate = "IMMEDIATE"
        /// Takes locks on first use; right for read-only transactions.
        case deferred = "DEFERRED"
    }

    /// Runs `body` in a transaction: commits when it returns, rolls back when it throws.
    ///
    /// Nested calls run inside the outer transaction through a savepoint, so an inner throw undoes
    /// only the inner work if the caller catches it.
    ///
    /// - Throws: what `body` throws, or ``StoreError`` when `BEGIN`/`COMMIT` fails.
    package func inTransaction<T>(_ kind: TransactionKind = .immediate, _ body: (Database) throws -> T) throws -> T {
        if isInsideTransaction { return try inSavepoint(body) }
        try execute(script: "BEGIN \(kind.rawValue) TRANSACTION")
        do {
            if kind == .immediate {
                // Checked at COMMIT instead of per statement: the transaction is all-or-nothing anyway, and
                // immediate checks force a statement journal per row (a third of a bulk upsert's time).
                try execute(script: "PRAGMA defer_foreign_keys = ON")
            }
            let result = try body(self)
            try execute(script: "COMMIT TRANSACTION")
            return result
        } catch {
            rollbackIfNeeded()
            throw error
        }
    }

    /// Runs `body` in a `BEGIN IMMEDIATE` transaction (the only way sclm writes).
    ///
    /// - Throws: what `body` throws, or ``StoreError``.
    package func write<T>(_ body: (Database) throws -> T) throws -> T {
        try inTransaction(.immediate, body)
    }

    /// Runs `body` like ``write(_:)``, with the commit flushed to disk (`synchronous=FULL` for this
    /// transaction): what it writes survives a power loss, not only a crash of the process.
    ///
    /// - Throws: what `body` throws, or ``StoreError``.
    package func writeDurably<T>(_ body: (Database) throws -> T) throws -> T {
        // The safety level cannot change inside a transaction, so it is set around it.
        try execute(script: "PRAGMA synchronous = FULL")
        defer { try? execute(script: "PRAGMA synchronous = NORMAL") }
        return try write(body)
    }

    /// Runs `body` in a deferred transaction, so it sees one consistent snapshot.
    ///
    /// - Throws: what `body` throws, or ``StoreError``.
    package func read<T>(_ body: (Database) throws -> T) throws -> T {
        try inTransaction(.deferred, body)
    }

    private func inSavepoint<T>(_ body: (Database) throws -> T) throws -> T {
        try execute(script: "SAVEPOINT sclm_nested")
        do {
            let result = try body(self)
            try execute(script: "RELEASE SAVEPOINT sclm_nested")
            return result
        } catch {
            try? execute(script: "ROLLBACK TO SAVEPOINT sclm_nested; RELEASE SAVEPOINT sclm_nested")
            throw error
        }
    }

    private func rollbackIfNeeded() {
        // SQLite may already have rolled back (e.g. after SQLITE_FULL); ROLLBACK then fails harmlessly.
        if isInsideTransaction { try? execute(script: "ROLLBACK TRANSACTION") }
    }
}
