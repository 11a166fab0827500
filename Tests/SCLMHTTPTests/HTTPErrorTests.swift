import Foundation
import SCLMCore
import SCLMTestSupport
import Testing

@testable import SCLMHTTP

@Suite(.tags(.small)) struct HTTPErrorTests {
    static let url = URL(literal: "https://blob.example.net:8443/packages/abc.zip?se=1&sig=SECRETSIG")

    struct CurlCase: Sendable, CustomTestStringConvertible {
        let curl: CurlCode
        let code: HTTPError.Code
        var testDescription: String { "\(curl.rawValue) → \(code)" }
    }

    static let curlCases: [CurlCase] = [
        .init(curl: .couldNotResolveHost, code: .offline), .init(curl: .couldNotConnect, code: .connectFailed),
        .init(curl: .operationTimedOut, code: .timedOut), .init(curl: .peerFailedVerification, code: .tls),
        .init(curl: .sslConnectError, code: .tls), .init(curl: .sslCACertificateBadFile, code: .tls),
        .init(curl: .partialFile, code: .connectionLost), .init(curl: .gotNothing, code: .connectionLost),
        .init(curl: .receiveError, code: .connectionLost), .init(curl: .tooManyRedirects, code: .tooManyRedirects),
        .init(curl: .unsupportedProtocol, code: .unsupportedScheme),
        .init(curl: .badContentEncoding, code: .badResponse),
        .init(curl: .urlMalformed, code: .invalidURL), .init(curl: CurlCode(rawValue: 4), code: .transport),
    ]

    @Test(arguments: curlCases) func classifiesLibcurlCodes(_ example: CurlCase) {
        #expect(example.curl.errorCode == example.code)
    }

    struct StatusCase: Sendable, CustomTestStringConvertible {
        let status: Int
        let category: ErrorCategory
        var testDescription: String { "\(status) → \(category)" }
    }

    static let statusCases: [StatusCase] = [
        .init(status: 401, category: .auth), .init(status: 403, category: .auth),
        .init(status: 404, category: .notFound),
        .init(status: 429, category: .temporary), .init(status: 503, category: .temporary),
        .init(status: 500, category: .network), .init(status: 400, category: .network),
    ]

    @Test(arguments: statusCases) func categorizesStatuses(_ example: StatusCase) {
        let error = HTTPError(.status, method: .get, url: HTTPErrorTests.url, status: example.status)
        #expect(error.category == example.category)
    }

    static let allCodes: [HTTPError.Code] = [
        .offline, .connectFailed, .timedOut, .tls, .connectionLost, .status, .tooManyRedirects, .unsupportedScheme,
        .budgetExceeded, .badResponse, .invalidURL, .transport,
    ]

    @Test(arguments: allCodes) func messagesNameTheHostButNeverTheQuery(_ code: HTTPError.Code) {
        let error = HTTPError(
            code, method: .get, url: HTTPErrorTests.url, status: 503,
            detail: "Failed to fetch https://blob.example.net/x?sig=SECRETSIG now")
        #expect(error.description.contains("blob.example.net"))
        #expect(!error.description.contains("SECRETSIG"))
        #expect(!error.description.contains("se=1"))
    }

    @Test func statusMessagesSayWhatToDo() {
        let busy = HTTPError(.status, method: .get, url: HTTPErrorTests.url, status: 503, retryAfter: .seconds(2))
        #expect(
            busy.description
                == "GET blob.example.net:8443/packages/abc.zip answered HTTP 503: the service is temporarily unavailable; retry later (the server asked to wait 2 s)"
        )
        let denied = HTTPError(
            .status, method: .get, url: HTTPErrorTests.url, status: 403, detail: "AuthenticationFailed")
        #expect(denied.description.contains("HTTP 403, AuthenticationFailed: access was denied"))
    }

    @Test func serverReasonsAreOnlyShortCodes() {
        func reason(_ text: String) -> String? { ServerReason.extract(from: Data(text.utf8)) }
        #expect(reason(#"{"error":"invalid_grant"}"#) == "invalid_grant")
        #expect(
            reason("<?xml version=\"1.0\"?><Error><Code>AuthenticationFailed</Code><Message>x</Message></Error>")
                == "AuthenticationFailed")
        #expect(reason(#"{"error":"bad token eyJhbGciOi=/+"}"#) == nil)
        #expect(reason("plain text") == nil)
    }

    @Test func retryAfterAcceptsSecondsAndDates() {
        let now = Date(timeIntervalSince1970: 1_700_000_000)
        #expect(RetryAfter.parse("7", now: now) == .seconds(7))
        #expect(RetryAfter.parse("Tue, 14 Nov 2023 22:13:30 GMT", now: now) == .seconds(10))
        #expect(RetryAfter.parse("Tue, 14 Nov 2023 22:00:00 GMT", now: now) == .seconds(0))
        #expect(RetryAfter.parse("soon", now: now) == nil)
    }

    @Test func contentRangesParse() {
        let range = ContentRange("bytes 100-199/200")
        #expect(range?.start == 100 && range?.end == 199 && range?.total == 200)
        #expect(ContentRange("bytes */512")?.total == 512)
        #expect(ContentRange("bytes */512")?.start == nil)
        #expect(ContentRange("items 1-2/3") == nil)
    }
}
