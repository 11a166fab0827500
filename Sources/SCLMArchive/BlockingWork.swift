import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Runs blocking work (libarchive loops, file I/O) on a dedicated thread, bridged to async/await.
///
/// Task cancellation sets the ``CancellationFlag`` the work receives; the work polls it between blocks and
/// throws `CancellationError`. The thread reads file names and archive paths as UTF-8 (`C.UTF-8` as its
/// `LC_CTYPE`), so libarchive keeps non-ASCII names intact whatever the process locale is.
enum BlockingWork {
    /// `C.UTF-8` (glibc ≥ 2.35 has it built in), or `nil` when the system lacks it.
    nonisolated(unsafe) private static let utf8Locale = newlocale(LC_CTYPE_MASK, "C.UTF-8", nil)

    /// Runs `body` on a new thread and returns its result.
    ///
    /// - Throws: what `body` throws; `CancellationError` when the task is cancelled and `body` notices.
    static func run<T: Sendable>(_ name: String, _ body: @escaping @Sendable (CancellationFlag) throws -> T)
        async throws -> T
    {
        let flag = CancellationFlag()
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                let thread = Thread {
                    let previous = utf8Locale.map { uselocale($0) }
                    defer { if let previous { uselocale(previous) } }
                    continuation.resume(with: Result { try body(flag) })
                }
                thread.name = name
                thread.start()
            }
        } onCancel: {
            flag.cancel()
        }
    }
}
