/// The ids of the presentation's client's StoryCLM tables, asked of the API once per run and kept: the
/// Tables commands that name a table serve only these.
///
/// Commands that need the ids while they are being fetched all await that one fetch. A fetch that fails is
/// not kept, so the next command asks again.
actor ClientTables {
    private var ids: Set<Int64>?
    private var fetching: Task<Set<Int64>, any Error>?

    /// The ids, from `fetch` on the first call (and after a failed one).
    ///
    /// - Throws: what `fetch` throws.
    func ids(fetch: @escaping @Sendable () async throws -> Set<Int64>) async throws -> Set<Int64> {
        if let ids { return ids }
        if let fetching { return try await fetching.value }
        let task = Task { try await fetch() }
        fetching = task
        defer { fetching = nil }
        let fetched = try await task.value
        ids = fetched
        return fetched
    }
}
