import Foundation
import SCLMCore
import SCLMHTTP
import SCLMStore
import SCLMTestSupport
import Synchronization
import Testing

@testable import SCLMAnalytics

@Suite(.tags(.medium)) struct PublisherTests {
    let rows: AnalyticsStore
    static let endpoint = URL(literal: "https://iot.example.test")

    /// A completed session with three slide views and two custom events: six messages.
    init() throws {
        rows = try AnalyticsStore()
        try rows.write { db in
            try db.insertAnalyticsSession("s-1", state: 1, complete: true)
            for index in 1...3 { try db.insertAnalyticsSlideView("a-\(index)", sessionId: "s-1") }
            for index in 1...2 { try db.insertAnalyticsCustomEvent("e-\(index)", sessionId: "s-1", key: "k\(index)") }
        }
    }

    func publisher(
        _ transport: FakeTransport, attempts: Int = 3, concurrency: Int = 4
    ) -> Publisher {
        let credentials = StoryIoTCredentials(
            endpoint: Self.endpoint, hub: "hub", key: "key", secret: "secret", expiration: .seconds(180))
        let client = StoryIoTClient(
            credentials: credentials, transport: transport, clock: SystemClock(), timeout: .seconds(5))
        let retrier = Retrier(policy: RetryPolicy(maxAttempts: attempts), sleep: { _ in }, jitter: { 0 })
        return Publisher(
            outbox: rows.outbox, client: client, device: .fixture, retrier: retrier, concurrency: concurrency)
    }

    static func accepted(_ request: HTTPRequest) -> HTTPResponse {
        .json(#"{"Id":"x"}"#, to: request)
    }

    static func entity(_ request: HTTPRequest) -> String { request.headers["s-m-id"] ?? "" }

    @Test func publishesEverySignedMessageAndMarksIt() async throws {
        let transport = FakeTransport { Self.accepted($0) }
        let report = try await publisher(transport).flush()
        #expect(report.published == 6 && report.isSuccess && report.pending == 0)
        #expect(transport.requests.map(Self.entity).sorted() == ["a-1", "a-2", "a-3", "e-1", "e-2", "s-1"])
        let request = try #require(transport.requests.first { Self.entity($0) == "s-1" })
        #expect(request.method == .post && request.headers["Content-Type"] == "application/json")
        #expect(request.url.absoluteString.hasPrefix("https://iot.example.test/hub/publish/?key=key&expiration="))
        let items = try #require(URLComponents(url: request.url, resolvingAgainstBaseURL: false)?.queryItems)
        let expiration = try #require(items.first { $0.name == "expiration" }?.value)
        let signature = StoryIoTSignature.sign(key: "key", expiration: expiration, secret: "secret")
        #expect(items.first { $0.name == "signature" }?.value == signature)
        #expect(try await rows.outbox.summary()[.published] == 6)
        #expect(try await publisher(transport).flush().published == 0)
    }

    @Test func transientFailuresAreRetriedAndCounted() async throws {
        let failures = Mutex(["a-2": 2, "e-1": 1])
        let transport = FakeTransport { request in
            let failing = failures.withLock { remaining in
                guard let left = remaining[Self.entity(request)], left > 0 else { return false }
                remaining[Self.entity(request)] = left - 1
                return true
            }
            return failing ? .json(#"{"error":"busy"}"#, status: 503, to: request) : Self.accepted(request)
        }
        let report = try await publisher(transport).flush()
        #expect(report.published == 6 && report.isSuccess)
        #expect(try rows.column("publishAttempts", of: .slide, id: "a-2") == .integer(3))
        #expect(try rows.column("publishAttempts", of: .customEvent, id: "e-1") == .integer(2))
        #expect(try rows.column("publishAttempts", of: .slide, id: "a-1") == .integer(1))
    }

    @Test func aRefusedSignatureParksEveryRowWithTheReason() async throws {
        let transport = FakeTransport { .json(#"{"error":"signature mismatch"}"#, status: 401, to: $0) }
        let report = try await publisher(transport).flush()
        #expect(report.parked == 6 && report.published == 0 && !report.isSuccess)
        #expect(transport.requests.count == 6)
        let reason = try #require(report.failures.first?.error)
        #expect(reason.contains("HTTP 401, signature mismatch") && reason.contains("iot.secret"))
        #expect(reason.contains("--retry-parked"))
        #expect(try await rows.outbox.summary()[.parked] == 6)
        #expect(try await publisher(transport).flush().failures.isEmpty)

        let fixed = FakeTransport { Self.accepted($0) }
        let retried = try await publisher(fixed).flush(retryParked: true)
        #expect(retried.published == 6 && retried.parkedTotal == 0)
        #expect(try rows.column("publishAttempts", of: .session, id: "s-1") == .integer(2))
    }

    @Test(arguments: [400, 404, 409, 413, 422])
    func otherClientErrorsPark(status: Int) async throws {
        let transport = FakeTransport { request in
            Self.entity(request) == "a-1" ? .json("{}", status: status, to: request) : Self.accepted(request)
        }
        let report = try await publisher(transport).flush()
        #expect(report.published == 5 && report.parked == 1)
        #expect(report.failures.map(\.id) == ["a-1"] && report.failures.first?.parked == true)
        #expect(transport.requests.filter { Self.entity($0) == "a-1" }.count == 1)
    }

    @Test(arguments: [408, 429, 500, 502, 503, 504])
    func anUnavailableServiceStopsTheFlushAndKeepsEveryRow(status: Int) async throws {
        let transport = FakeTransport { .json("{}", status: status, to: $0) }
        let report = try await publisher(transport, attempts: 3, concurrency: 1).flush()
        #expect(transport.requests.count == 3)
        #expect(report.failed == 1 && report.published == 0 && report.parked == 0)
        #expect(report.stopReason?.contains("HTTP \(status)") == true)
        #expect(report.pending == 6 && report.parkedTotal == 0)
        #expect(try rows.column("publishAttempts", of: .session, id: "s-1") == .integer(3))
    }

    @Test func aConnectionFailureKeepsEveryRowPending() async throws {
        let transport = FakeTransport { request in
            throw HTTPError(.connectFailed, method: request.method, url: request.url)
        }
        let report = try await publisher(transport, attempts: 2, concurrency: 2).flush()
        #expect(report.published == 0 && report.parked == 0 && report.failed >= 1)
        #expect(report.pending == 6)
        #expect(report.stopReason?.contains("cannot connect") == true)
    }

    @Test func publishesAreBoundedInFlight() async throws {
        try rows.write { db in
            for index in 4...20 { try db.insertAnalyticsSlideView("a-\(index)", sessionId: "s-1") }
        }
        let counters = Mutex((now: 0, peak: 0))
        let transport = FakeTransport { request in
            counters.withLock {
                $0.now += 1; $0.peak = max($0.peak, $0.now)
            }
            try await Task.sleep(for: .milliseconds(5))
            counters.withLock { $0.now -= 1 }
            return Self.accepted(request)
        }
        let report = try await publisher(transport, concurrency: 3).flush()
        #expect(report.published == 23)
        let peak = counters.withLock { $0.peak }
        #expect(peak > 1 && peak <= 3)
    }

    @Test func anOversizedRowIsParkedWithoutARequest() async throws {
        let value = String(repeating: "v", count: StoryIoTMessage.maxBodyBytes + 1)
        try rows.write { db in try db.execute("UPDATE custom_events SET value = ? WHERE id = 'e-2'", [value]) }
        let transport = FakeTransport { Self.accepted($0) }
        let report = try await publisher(transport).flush()
        #expect(report.published == 5 && report.parked == 1)
        #expect(!transport.requests.contains { Self.entity($0) == "e-2" })
        let reason = try #require(report.failures.first?.error)
        #expect(reason.hasPrefix("the custom event cannot be published: its body is"))
    }
}
