/// Runs `body` to its end even when the calling task is cancelled, and returns its result.
///
/// For bookkeeping that must finish once started: recording an install, putting a presentation's state
/// back after a failure, closing a session when the bridge ends on Ctrl-C. `body` runs in a task of its
/// own, which the caller's cancellation does not reach; the caller still waits for it.
///
/// ```swift
/// try await withCancellationShield { try await store.write { db in try db.settle(id) } }
/// ```
///
/// - Throws: what `body` throws (never a `CancellationError` caused by the caller's cancellation).
package func withCancellationShield<T: Sendable>(_ body: @escaping @Sendable () async throws -> T) async throws -> T {
    try await Task { try await body() }.value
}

/// Runs `body` to its end even when the calling task is cancelled; the non-throwing form of
/// the throwing `withCancellationShield(_:)`.
package func withCancellationShield<T: Sendable>(_ body: @escaping @Sendable () async -> T) async -> T {
    await Task { await body() }.value
}
