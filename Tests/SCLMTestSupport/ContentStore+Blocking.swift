import SCLMStore

/// Blocking reads and writes of a store's database for synchronous test code, through a connection of their
/// own: the store's file is in WAL mode, so they see what the store committed and wait out its writes (a
/// test of the store's own connection uses its `read` and `write`).
extension ContentStore {
    /// Runs `body` in a read transaction of a new connection to the store's file.
    ///
    /// - Throws: what `body` throws or ``StoreError``.
    package func readNow<T>(_ body: (Database) throws -> T) throws -> T {
        try Database(path: path).read(body)
    }

    /// Runs `body` in a write transaction of a new connection to the store's file.
    ///
    /// - Throws: what `body` throws or ``StoreError``.
    package func writeNow<T>(_ body: (Database) throws -> T) throws -> T {
        try Database(path: path).write(body)
    }
}
