import Foundation
import SCLMCore
import SCLMHTTP
import SCLMOSAM
import SCLMPolicy
import SCLMTestSupport
import Testing

/// The HTTP side of the backend: URLs under the full endpoint, Basic auth only when configured, failures as values.
@Suite(.tags(.small)) struct HTTPOSAMBackendTests {
    static let record = #"{"data":{"versionCode":7,"serverDate":5,"comparisonMode":"INFO","title":"t","message":"m"}}"#

    @Test func keepsTheEndpointsPathPrefixAndPortAndEncodesSegments() async throws {
        let transport = FakeTransport { .json(Self.record, to: $0) }
        let backend = HTTPOSAMBackend(
            endpoint: URL(literal: "https://osam.example:8443/prefix/"), credentials: nil, transport: transport)
        let result = try await backend.version(
            package: "cat.bcn/app", platform: .ios, versionCode: 2021050000, deviceNow: 0)
        guard case .fetched(let record) = result else { Issue.record("expected a record, got \(result)"); return }
        #expect(record.mode == .info)
        let request = try #require(transport.requests.first)
        #expect(request.method == .get)
        #expect(
            request.url.absoluteString == "https://osam.example:8443/prefix/api/version/cat.bcn%2Fapp/IOS/2021050000")
        #expect(request.headers["Authorization"] == nil, "no Basic header unless configured")
        #expect(request.timeout == HTTPOSAMBackend.fetchTimeout)
    }

    @Test func sendsBasicAuthWhenConfigured() async throws {
        let transport = FakeTransport { .json(#"{"data":{"minutes":1,"numAperture":2}}"#, to: $0) }
        let backend = HTTPOSAMBackend(
            endpoint: URL(literal: "http://127.0.0.1:9"), credentials: .init(username: "osam", password: "osam"),
            transport: transport)
        let result = try await backend.rating(package: "p", platform: .android)
        #expect(result == .fetched(RatingRecord(minutes: 1, numAperture: 2)))
        #expect(transport.requests.first?.url.absoluteString == "http://127.0.0.1:9/api/rating/p/ANDROID")
        #expect(transport.requests.first?.headers["Authorization"] == "Basic b3NhbTpvc2Ft")
    }

    struct FailureCase: Sendable, CustomTestStringConvertible {
        let name: String
        let status: Int
        let body: String
        let message: String
        var testDescription: String { name }
    }

    static let failures: [FailureCase] = [
        FailureCase(
            name: "404", status: 404, body: #"{"error":"no version record"}"#,
            message: "GET 127.0.0.1:9/api/version/p/IOS/1 answered HTTP 404"),
        FailureCase(
            name: "401 names the settings", status: 401, body: "{}", message: "check osam.username and osam.password"),
        FailureCase(name: "200 with HTML", status: 200, body: "<html>", message: "invalid JSON"),
        FailureCase(
            name: "200 without a record", status: 200, body: #"{"data":{"id":1}}"#, message: "neither an OSAM record"),
    ]

    @Test(arguments: failures) func failuresAreValuesNamingTheRequest(_ test: FailureCase) async throws {
        let transport = FakeTransport { .json(test.body, status: test.status, to: $0) }
        let backend = HTTPOSAMBackend(
            endpoint: URL(literal: "http://127.0.0.1:9"), credentials: nil, transport: transport)
        let result = try await backend.version(package: "p", platform: .ios, versionCode: 1, deviceNow: 0)
        guard case .failed(let message) = result else { Issue.record("expected a failure, got \(result)"); return }
        #expect(message.contains(test.message), "\(message)")
    }

    @Test func aTransportErrorIsAFailureAndCancellationIsThrown() async throws {
        let url = URL(literal: "http://127.0.0.1:9")
        let down = HTTPOSAMBackend(
            endpoint: url, credentials: nil,
            transport: FakeTransport { throw HTTPError(.connectFailed, method: $0.method, url: $0.url) })
        guard case .failed = try await down.rating(package: "p", platform: .ios) else {
            Issue.record("expected a failure"); return
        }
        #expect(await down.isOnline() == false)

        let cancelled = HTTPOSAMBackend(
            endpoint: url, credentials: nil, transport: FakeTransport { _ in throw CancellationError() })
        await #expect(throws: CancellationError.self) { try await cancelled.rating(package: "p", platform: .ios) }
    }

    @Test func anyHTTPAnswerToTheProbeMeansOnline() async throws {
        let transport = FakeTransport { HTTPResponse(status: 404, url: $0.url) }
        let backend = HTTPOSAMBackend(
            endpoint: URL(literal: "http://127.0.0.1:9/base"), credentials: nil, transport: transport)
        #expect(await backend.isOnline())
        #expect(transport.requests.first?.method == .head)
        #expect(transport.requests.first?.timeout == HTTPOSAMBackend.probeTimeout)
    }

    @Test func theWebhookGetsEachChangeAsJSONAndAFailureThrows() async throws {
        let transport = FakeTransport { request in
            HTTPResponse(status: request.url.path == "/ok" ? 204 : 500, url: request.url)
        }
        let change = SubscriptionChange(action: "subscribe", package: "p", topic: "news", token: "t")
        try await HTTPOSAMBackend.webhookNotifier(URL(literal: "http://127.0.0.1:9/ok"), transport: transport)(change)
        let request = try #require(transport.requests.first)
        #expect(request.method == .post)
        #expect(request.headers["Content-Type"] == "application/json")
        #expect(
            try JSONValue.parse(request.body ?? Data()) == [
                "action": "subscribe", "package": "p", "topic": "news", "token": "t",
            ])
        await #expect(throws: HTTPError.self) {
            try await HTTPOSAMBackend.webhookNotifier(URL(literal: "http://127.0.0.1:9/down"), transport: transport)(
                change)
        }
    }
}
