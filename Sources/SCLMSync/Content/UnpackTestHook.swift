import SCLMCore

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// A test hook that stops one presentation's unpack half-way, so the end-to-end tests can interrupt an unpack
/// deterministically (docs/development.md).
///
/// Compiled into debug builds only, and inert unless `SCLM_DEBUG_UNPACK` is set: `crash:ID` makes the process
/// `abort()` once the unpack of presentation ID has written its first block (a crash mid-unpack, its staging
/// folder left on disk); `hold:ID` makes that unpack wait there until the sync is cancelled (Ctrl-C, SIGTERM),
/// after which it stops as any cancelled unpack does. Any other value is ignored.
struct UnpackTestHook: Sendable, Equatable {
    /// What happens to the unpack.
    enum Action: String, Sendable {
        /// `abort()` the process.
        case crash
        /// Wait until the sync is cancelled.
        case hold
    }

    /// What happens.
    let action: Action
    /// The presentation whose unpack it stops.
    let presentationId: Int64

    /// The hook `SCLM_DEBUG_UNPACK` asks for; always `nil` in a release build.
    static let current: UnpackTestHook? = {
        #if DEBUG
            return getenv("SCLM_DEBUG_UNPACK").flatMap { UnpackTestHook(String(cString: $0)) }
        #else
            return nil
        #endif
    }()

    /// Parses `ACTION:ID`, or `nil` for anything else.
    init?(_ text: String) {
        let parts = text.split(separator: ":", omittingEmptySubsequences: false)
        guard parts.count == 2, let action = Action(rawValue: String(parts[0])), let id = Int64(parts[1]) else {
            return nil
        }
        self.action = action
        presentationId = id
    }

    /// Runs after each block the unpack of presentation `id` writes, on the unpack's thread.
    ///
    /// - Parameters:
    ///   - id: the presentation being unpacked.
    ///   - cancellation: set when the sync is cancelled (ends a `hold`).
    func fire(presentationId id: Int64, cancellation: CancellationFlag) {
        guard id == presentationId else { return }
        switch action {
        case .crash: abort()
        case .hold: while !cancellation.isCancelled { usleep(10_000) }
        }
    }
}
