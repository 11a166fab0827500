import Foundation
import SCLMCore

/// When and how long to wait before repeating a failed request: bounded attempts, exponential backoff
/// with jitter, and the server's `Retry-After` honoured.
///
/// Idempotent requests are retried after any transient failure (connect, timeout, broken connection,
/// 408/429/500/502/503/504). Other requests only when the server cannot have acted on them: the
/// connection never opened, or it answered 429/503.
package struct RetryPolicy: Sendable, Equatable {
    /// Attempts in all, the first included.
    package var maxAttempts: Int
    /// The pause after the first failure, doubled after each further one.
    package var baseDelay: Duration
    /// The longest computed pause.
    package var maxDelay: Duration
    /// The longest `Retry-After` sclm waits for; a longer one ends the retries.
    package var maxRetryAfter: Duration

    /// Creates a policy.
    package init(
        maxAttempts: Int = 5, baseDelay: Duration = .milliseconds(250), maxDelay: Duration = .seconds(15),
        maxRetryAfter: Duration = .seconds(120)
    ) {
        self.maxAttempts = max(1, maxAttempts)
        self.baseDelay = baseDelay
        self.maxDelay = maxDelay
        self.maxRetryAfter = maxRetryAfter
    }

    /// Never retries.
    package static let never = RetryPolicy(maxAttempts: 1)

    /// Whether `error` from a `method` request is worth another attempt.
    package static func isRetryable(_ error: any Error, method: HTTPMethod) -> Bool {
        isRetryable(error, idempotent: method.isIdempotent)
    }

    /// Whether `error` is worth another attempt of a request that is (or is not) safe to repeat after
    /// the server may have acted on it. A `POST` is idempotent when the server recognises a repeat, as
    /// StoryIoT does by the message's entity id.
    package static func isRetryable(_ error: any Error, idempotent: Bool) -> Bool {
        guard let error = error as? HTTPError else { return false }
        switch error.code {
        case .status:
            let status = error.status ?? 0
            return [429, 503].contains(status) || (idempotent && [408, 500, 502, 504].contains(status))
        case .offline, .connectFailed:
            return true
        case .timedOut, .connectionLost:
            return idempotent
        default:
            return false
        }
    }

    /// The pause before the next attempt after `error` ended attempt number `attempt`.
    ///
    /// - Parameters:
    ///   - error: why the attempt failed.
    ///   - attempt: the attempt that failed, counted from 1.
    ///   - method: the request method, which decides what is safe to repeat.
    ///   - jitter: a random number in 0…1; half of the computed pause is fixed, half scaled by it, so
    ///     clients that failed together do not retry together.
    /// - Returns: the pause, or `nil` to give up.
    package func delay(after error: any Error, attempt: Int, method: HTTPMethod, jitter: Double) -> Duration? {
        delay(after: error, attempt: attempt, idempotent: method.isIdempotent, jitter: jitter)
    }

    /// The pause before the next attempt, like ``delay(after:attempt:method:jitter:)`` but with the
    /// request's idempotency given directly.
    package func delay(after error: any Error, attempt: Int, idempotent: Bool, jitter: Double) -> Duration? {
        guard attempt < maxAttempts, RetryPolicy.isRetryable(error, idempotent: idempotent) else { return nil }
        if let retryAfter = (error as? HTTPError)?.retryAfter {
            return retryAfter <= maxRetryAfter ? retryAfter : nil
        }
        let exponent = min(max(0, attempt - 1), 30)
        let computed = min(maxDelay, baseDelay * (1 << exponent))
        return computed * (0.5 + 0.5 * min(1, max(0, jitter)))
    }
}

/// Runs an operation under a ``RetryPolicy``, sleeping between attempts.
package struct Retrier: Sendable {
    /// The policy.
    package let policy: RetryPolicy
    private let sleep: @Sendable (Duration) async throws -> Void
    private let jitter: @Sendable () -> Double

    /// Creates a retrier; tests inject `sleep` and `jitter`.
    package init(
        policy: RetryPolicy,
        sleep: @escaping @Sendable (Duration) async throws -> Void = { try await Task.sleep(for: $0) },
        jitter: @escaping @Sendable () -> Double = { Double.random(in: 0...1) }
    ) {
        self.policy = policy
        self.sleep = sleep
        self.jitter = jitter
    }

    /// Runs `operation` until it succeeds, fails for good, or the attempts are used up.
    ///
    /// - Parameters:
    ///   - method: the request method, which decides what is safe to repeat.
    ///   - onRetry: told about each failure that is retried (the error, the attempt that failed, the pause).
    ///   - operation: one attempt.
    /// - Returns: what the first successful attempt returned.
    /// - Throws: the last error, or `CancellationError` when cancelled while waiting.
    package func run<T>(
        method: HTTPMethod, onRetry: (any Error, Int, Duration) -> Void = { _, _, _ in },
        _ operation: () async throws -> T
    ) async throws -> T {
        try await run(idempotent: method.isIdempotent, onRetry: onRetry, operation)
    }

    /// Runs `operation` like ``run(method:onRetry:_:)``, for a request whose idempotency is given directly.
    ///
    /// - Returns: what the first successful attempt returned.
    /// - Throws: the last error, or `CancellationError` when cancelled while waiting.
    package func run<T>(
        idempotent: Bool, onRetry: (any Error, Int, Duration) -> Void = { _, _, _ in },
        _ operation: () async throws -> T
    ) async throws -> T {
        var attempt = 1
        while true {
            do {
                return try await operation()
            } catch {
                guard try await backOff(after: error, attempt: attempt, idempotent: idempotent, onRetry: onRetry)
                else { throw error }
                attempt += 1
            }
        }
    }

    /// One step of retrying, for loops that do more between attempts than ``run(idempotent:onRetry:_:)``:
    /// when the policy allows another attempt after `error`, tells `onRetry` and sleeps the pause.
    ///
    /// - Returns: whether to try again (`false`: give up with `error`).
    /// - Throws: `CancellationError` when cancelled while waiting.
    package func backOff(
        after error: any Error, attempt: Int, idempotent: Bool, onRetry: (any Error, Int, Duration) -> Void
    ) async throws -> Bool {
        guard let pause = policy.delay(after: error, attempt: attempt, idempotent: idempotent, jitter: jitter())
        else { return false }
        onRetry(error, attempt, pause)
        try await sleep(pause)
        return true
    }
}

extension Retrier {
    /// An `onRetry` handler that logs each retried failure as one warning line, prefixed with `subject`:
    /// `presentation 17: GET host/v1/presentations/17 answered HTTP 503; retry 1 of 4 in 250 ms`.
    package func logging(to logger: Logger?, subject: String? = nil) -> (any Error, Int, Duration) -> Void {
        let retries = policy.maxAttempts - 1
        return { error, attempt, pause in
            let prefix = subject.map { "\($0): " } ?? ""
            let what = (error as? HTTPError)?.summary ?? error.userMessage
            logger?.warning("\(prefix)\(what); retry \(attempt) of \(retries) in \(pause.shortDescription)")
        }
    }
}

extension Duration {
    /// `250 ms` below a second, `2.5 s` above, for messages.
    package var shortDescription: String {
        let milliseconds = self.milliseconds
        if milliseconds < 1000 { return "\(milliseconds) ms" }
        let seconds = Double(milliseconds) / 1000
        return seconds == seconds.rounded() ? "\(Int(seconds)) s" : String(format: "%.1f s", seconds)
    }
}
