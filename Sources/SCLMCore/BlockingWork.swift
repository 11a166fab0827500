import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Runs blocking work (libarchive loops, file I/O) on its own serial dispatch queue, bridged to async/await.
///
/// A dispatch queue rather than a Foundation `Thread`: measured on the validate benchmark, inflate's
/// memcpy of stored blocks ran about 7x slower on a fresh Foundation thread (same code, same data), which
/// made validation 1.5x slower overall; on a dispatch worker it runs at the speed of plain C.
///
/// Task cancellation sets the ``CancellationFlag`` the work receives; the work polls it between blocks and
/// throws `CancellationError`. The worker reads file names and archive paths as UTF-8 (`C.UTF-8` as its
/// `LC_CTYPE`), so libarchive keeps non-ASCII names intact whatever the process locale is.
package enum BlockingWork {
    /// `C.UTF-8` (glibc ≥ 2.35 has it built in), or `nil` when the system lacks it.
    nonisolated(unsafe) private static let utf8Locale = newlocale(LC_CTYPE_MASK, "C.UTF-8", nil)

    /// Runs `body` on a new serial queue and returns its result.
    ///
    /// - Throws: what `body` throws; `CancellationError` when the task is cancelled and `body` notices.
    package static func run<T: Sendable>(_ name: String, _ body: @escaping @Sendable (CancellationFlag) throws -> T)
        async throws -> T
    {
        let flag = CancellationFlag()
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                DispatchQueue(label: name).async {
                    let previous = utf8Locale.map { uselocale($0) }
                    defer { if let previous { uselocale(previous) } }
                    continuation.resume(with: Result { try body(flag) })
                }
            }
        } onCancel: {
            flag.cancel()
        }
    }

    /// Runs short blocking file work (`rename`, `fsync`, removing a tree) off the cooperative pool and
    /// returns its result; `body` does not poll cancellation, so a step a crash-safe sequence must finish
    /// runs to its end.
    ///
    /// - Throws: what `body` throws.
    package static func file<T: Sendable>(_ name: String, _ body: @escaping @Sendable () throws -> T) async throws
        -> T
    {
        try await run(name) { _ in try body() }
    }
}
