import Foundation
import SCLMCore
import Synchronization

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// An exclusive, non-blocking lock on one presentation, shared by every sclm process on a home:
/// `flock(2)` on `locks/<presentationId>.lock`.
///
/// Whoever holds it may download, unpack, install or delete that presentation's content and cache files.
/// The kernel releases it when the holder exits, however it exits (even `kill -9`), so a lock can never
/// be left stale; the lock files themselves stay (removing one while another process waits on it would
/// let two processes hold "the" lock).
package final class PresentationLock: Sendable {
    /// The presentation locked.
    package let presentationId: Int64
    private let descriptor: Atomic<Int32>

    private init(presentationId: Int64, descriptor: Int32) {
        self.presentationId = presentationId
        self.descriptor = Atomic(descriptor)
    }

    deinit { release() }

    /// Takes the lock of `presentationId` in `home` if no other holder has it.
    ///
    /// - Returns: the lock, or `nil` when another process (or another part of this one) holds it.
    /// - Throws: `SCLMError` (`.storage`) when the lock file cannot be opened.
    package static func acquire(_ presentationId: Int64, in home: Home) throws -> PresentationLock? {
        try FileSystem.makeDirectory(home.lockDirectory, mode: 0o700)
        let path = "\(home.lockDirectory)/\(presentationId).lock"
        let fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o600)
        guard fd >= 0 else { throw FileSystem.storageError("open the lock file \(path)", errno: errno) }
        while flock(fd, LOCK_EX | LOCK_NB) != 0 {
            let code = errno
            if code == EINTR { continue }
            close(fd)
            if code == EWOULDBLOCK { return nil }
            throw FileSystem.storageError("lock \(path)", errno: code)
        }
        return PresentationLock(presentationId: presentationId, descriptor: fd)
    }

    /// Releases the lock (idempotent; also done when the lock is released from memory).
    package func release() {
        let fd = descriptor.exchange(-1, ordering: .acquiringAndReleasing)
        if fd >= 0 { close(fd) }
    }
}
