import Foundation
import SCLMCore
import SCLMHTTP
import SCLMTestSupport
import Synchronization
import Testing

@Suite(.tags(.small)) struct RetryPolicyTests {
    static let url = URL(literal: "http://127.0.0.1:8080/v1/clients")

    static func status(_ code: Int, retryAfter: Duration? = nil) -> HTTPError {
        HTTPError(.status, method: .get, url: url, status: code, retryAfter: retryAfter)
    }

    static func failure(_ code: HTTPError.Code) -> HTTPError { HTTPError(code, method: .get, url: url) }

    struct Case: Sendable, CustomTestStringConvertible {
        let name: String
        let error: HTTPError
        let method: HTTPMethod
        let retryable: Bool
        var testDescription: String { name }
    }

    static let cases: [Case] = [
        Case(name: "GET 503", error: status(503), method: .get, retryable: true),
        Case(name: "POST 503", error: status(503), method: .post, retryable: true),
        Case(name: "GET 429", error: status(429), method: .get, retryable: true),
        Case(name: "GET 500", error: status(500), method: .get, retryable: true),
        Case(name: "POST 500", error: status(500), method: .post, retryable: false),
        Case(name: "GET 404", error: status(404), method: .get, retryable: false),
        Case(name: "GET 401", error: status(401), method: .get, retryable: false),
        Case(name: "GET connection lost", error: failure(.connectionLost), method: .get, retryable: true),
        Case(name: "POST connection lost", error: failure(.connectionLost), method: .post, retryable: false),
        Case(name: "POST connect failed", error: failure(.connectFailed), method: .post, retryable: true),
        Case(name: "GET timeout", error: failure(.timedOut), method: .get, retryable: true),
        Case(name: "GET TLS", error: failure(.tls), method: .get, retryable: false),
        Case(name: "GET budget", error: failure(.budgetExceeded), method: .get, retryable: false),
    ]

    @Test(arguments: cases) func decidesWhatIsWorthRetrying(_ example: Case) {
        #expect(RetryPolicy.isRetryable(example.error, method: example.method) == example.retryable)
    }

    @Test func backsOffExponentiallyWithJitterUpToTheCap() {
        let policy = RetryPolicy(maxAttempts: 10, baseDelay: .milliseconds(100), maxDelay: .seconds(1))
        let error = RetryPolicyTests.status(503)
        let lowest = (1...6).map { policy.delay(after: error, attempt: $0, method: .get, jitter: 0) }
        let highest = (1...6).map { policy.delay(after: error, attempt: $0, method: .get, jitter: 1) }
        #expect(lowest == [50, 100, 200, 400, 500, 500].map { .milliseconds($0) })
        #expect(highest == [100, 200, 400, 800, 1000, 1000].map { .milliseconds($0) })
    }

    @Test func honoursRetryAfterButNotAnAbsurdOne() {
        let policy = RetryPolicy(maxRetryAfter: .seconds(60))
        #expect(
            policy.delay(
                after: RetryPolicyTests.status(503, retryAfter: .seconds(3)), attempt: 1, method: .get, jitter: 0.5)
                == .seconds(3))
        #expect(
            policy.delay(
                after: RetryPolicyTests.status(503, retryAfter: .seconds(3600)), attempt: 1, method: .get, jitter: 0.5)
                == nil)
    }

    @Test func givesUpAfterTheLastAttempt() async throws {
        let sleeps = Mutex<[Duration]>([])
        let calls = Mutex(0)
        let retrier = Retrier(
            policy: RetryPolicy(maxAttempts: 4, baseDelay: .milliseconds(10)),
            sleep: { pause in sleeps.withLock { $0.append(pause) } },
            jitter: { 1 })
        await #expect(throws: HTTPError.self) {
            try await retrier.run(method: .get) {
                calls.withLock { $0 += 1 }
                throw RetryPolicyTests.status(503)
            }
        }
        #expect(calls.withLock { $0 } == 4)
        #expect(sleeps.withLock { $0 } == [10, 20, 40].map { .milliseconds($0) })
    }

    @Test func succeedsAfterTransientFailures() async throws {
        let calls = Mutex(0)
        let retries = Mutex(0)
        let retrier = Retrier(policy: RetryPolicy(), sleep: { _ in }, jitter: { 0 })
        let value = try await retrier.run(method: .get, onRetry: { _, _, _ in retries.withLock { $0 += 1 } }) {
            let call = calls.withLock { count in
                count += 1
                return count
            }
            if call <= 2 { throw RetryPolicyTests.status(503) }
            return "ok"
        }
        #expect(value == "ok")
        #expect(retries.withLock { $0 } == 2)
    }

    @Test func doesNotRetryPermanentFailures() async throws {
        let calls = Mutex(0)
        let retrier = Retrier(policy: RetryPolicy(), sleep: { _ in }, jitter: { 0 })
        await #expect(throws: HTTPError.self) {
            try await retrier.run(method: .get) {
                calls.withLock { $0 += 1 }
                throw RetryPolicyTests.status(404)
            }
        }
        #expect(calls.withLock { $0 } == 1)
    }
}
