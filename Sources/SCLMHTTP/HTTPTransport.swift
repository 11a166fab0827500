/// Something that performs HTTP exchanges: ``CurlTransport`` in production, scripted fakes in tests.
///
/// Implementations must be safe to call from many tasks at once, must honour task cancellation by
/// throwing `CancellationError` promptly (within about a second), and must report transport failures
/// as ``HTTPError``. A test for an implementation sends a request to a loopback server, cancels a
/// stalled one, and resumes a download with `Range`.
package protocol HTTPTransport: Sendable {
    /// Sends `request` and returns the final response, whatever its status.
    ///
    /// - Throws: ``HTTPError`` when no complete response arrived (network, TLS, timeout, size limit),
    ///   `CancellationError` when the task is cancelled.
    func send(_ request: HTTPRequest) async throws -> HTTPResponse

    /// Streams the body of `request.request` into `request.destinationPath`, resuming at
    /// ``DownloadRequest/resumeOffset`` when it is positive.
    ///
    /// Memory use does not depend on the body size. `progress` is called from a transport thread, at
    /// most a few times a second, and must return quickly.
    ///
    /// - Returns: how the server answered (206 resumed, 200 restarted from zero, 416) and the file's size.
    /// - Throws: ``HTTPError`` for transport failures and for statuses other than 200, 206 and 416
    ///   (nothing of such a body is written), ``HTTPError/Code/budgetExceeded`` when the file would grow
    ///   beyond ``DownloadRequest/maxFileBytes``, `SCLMError` (`.storage`) when the file cannot be
    ///   written, `CancellationError` when the task is cancelled. Bytes written before a failure stay
    ///   in the file, so the caller can resume from its size.
    func download(_ request: DownloadRequest, progress: (@Sendable (DownloadProgress) -> Void)?) async throws
        -> DownloadResult
}
