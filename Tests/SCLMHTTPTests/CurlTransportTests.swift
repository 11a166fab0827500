import Foundation
import SCLMCore
import SCLMHTTP
import SCLMTestSupport
import Testing

/// ``CurlTransport`` against a real loopback server (`Tests/Fixtures/http_fixture.py`).
@Suite(.tags(.medium), .timeLimit(.minutes(1))) struct CurlTransportTests {
    let fixture: ServerProcess
    let transport = CurlTransport()

    init() throws {
        fixture = try ServerProcess(script: "Tests/Fixtures/http_fixture.py")
    }

    private func url(_ path: String) -> URL {
        URL(string: fixture.url.absoluteString + path) ?? fixture.url
    }

    private func echo(_ request: HTTPRequest, with transport: CurlTransport? = nil) async throws -> JSONValue {
        let response = try await (transport ?? self.transport).send(request)
        #expect(response.status == 200)
        return try JSONValue.parse(response.body)
    }

    @Test func sendsItsUserAgentAndAcceptsCompressedResponses() async throws {
        let echoed = try await echo(HTTPRequest(url: url("/echo")))
        #expect(echoed["headers"]?["user-agent"]?.stringValue == "sclm/\(SCLMVersion.current)")
        #expect(echoed["headers"]?["accept-encoding"]?.stringValue?.contains("gzip") == true)
    }

    @Test func decodesGzipBodies() async throws {
        let response = try await transport.send(HTTPRequest(url: url("/gzip")))
        #expect(response.status == 200)
        #expect(response.body == Data(String(repeating: "sclm ", count: 20000).utf8))
    }

    @Test func postsTheBodyWithTheGivenHeaders() async throws {
        let request = HTTPRequest(
            .post, url: url("/echo"), headers: ["Content-Type": "application/x-www-form-urlencoded", "X-Test": "1"],
            body: Data("a=1&b=%26".utf8))
        let echoed = try await echo(request)
        #expect(echoed["method"]?.stringValue == "POST")
        #expect(echoed["body"]?.stringValue == "a=1&b=%26")
        #expect(echoed["headers"]?["x-test"]?.stringValue == "1")
        #expect(echoed["headers"]?["expect"] == nil)
    }

    @Test func followsHTTPRedirectsAndReportsTheFinalURL() async throws {
        let response = try await transport.send(HTTPRequest(url: url("/redirect-ok")))
        #expect(response.status == 200)
        #expect(response.url.path() == "/json")
        #expect(String(decoding: response.body, as: UTF8.self) == #"{"hello":"world"}"#)
    }

    @Test func refusesARedirectToANonHTTPScheme() async throws {
        let error = try await #require(throws: HTTPError.self) {
            try await transport.send(HTTPRequest(url: url("/redirect-ftp")))
        }
        #expect(error.code == .unsupportedScheme)
        #expect(!error.description.contains("sig=abc"))
    }

    @Test func stopsAfterTooManyRedirects() async throws {
        let error = try await #require(throws: HTTPError.self) {
            try await transport.send(HTTPRequest(url: url("/redirect-loop")))
        }
        #expect(error.code == .tooManyRedirects)
        #expect(error.description.contains(fixture.url.hostDescription))
    }

    @Test func refusesToSendAHeaderValueThatWouldForgeHeaderLines() async throws {
        for value in ["Bearer a\r\nX-Injected: 1", "Bearer a\nX-Injected: 1", "Bearer a\u{0}b"] {
            let request = HTTPRequest(url: url("/echo"), headers: ["Authorization": value])
            let error = try await #require(throws: HTTPError.self) { try await transport.send(request) }
            #expect(error.code == .unsafeHeader)
            #expect(error.description.contains("\"Authorization\""))
            #expect(!error.description.contains("X-Injected"))
        }
        let badName = HTTPRequest(url: url("/echo"), headers: ["X-A\r\nX-Injected": "1"])
        #expect(try await #require(throws: HTTPError.self) { try await transport.send(badName) }.code == .unsafeHeader)
        #expect(
            try await echo(HTTPRequest(url: url("/echo"), headers: ["X-Tab": "a\tb"]))["headers"]?["x-tab"] == "a\tb")
    }

    @Test func dropsAReceivedHeaderWhoseValueHoldsABareCR() async throws {
        let response = try await transport.send(HTTPRequest(url: url("/header-cr")))
        #expect(response.status == 200)
        #expect(response.headers["ETag"] == nil)
        #expect(response.headers["X-Fine"] == "yes")
    }

    @Test func refusesURLsThatAreNotHTTP() async throws {
        let error = try await #require(throws: HTTPError.self) {
            try await transport.send(HTTPRequest(url: URL(fileURLWithPath: "/etc/passwd")))
        }
        #expect(error.code == .unsupportedScheme)
    }

    @Test func persistsCookiesInAPrivateJarAndSendsThemInTheNextProcess() async throws {
        let folder = TemporaryDirectory()
        let jar = folder.appending("cookies.txt")
        let first = CurlTransport(configuration: .init(cookieJarPath: jar))
        _ = try await first.send(HTTPRequest(url: url("/cookie")))
        #expect(FileSystem.mode(of: jar) == 0o600)
        #expect(try String(contentsOfFile: jar, encoding: .utf8).contains("fixture_session\tabc123"))
        let later = CurlTransport(configuration: .init(cookieJarPath: jar))
        let echoed = try await echo(HTTPRequest(url: url("/echo")), with: later)
        #expect(echoed["headers"]?["cookie"]?.stringValue == "fixture_session=abc123")
    }

    @Test func cancellingAStalledRequestEndsItPromptly() async throws {
        let task = Task { try await transport.send(HTTPRequest(url: url("/stall?seconds=120"))) }
        // Cancelled once the stall has begun: the response's first bytes are on their way.
        #expect(try await fixture.waitForLog { $0.contains("stalling") })
        task.cancel()
        // The stall outlasts the suite's one-minute limit: a request that ignored the cancel fails the test.
        await #expect(throws: CancellationError.self) { try await task.value }
    }

    @Test func aTotalTimeoutEndsASlowRequest() async throws {
        let request = HTTPRequest(url: url("/stall?seconds=5"), timeout: .milliseconds(400))
        let error = try await #require(throws: HTTPError.self) { try await transport.send(request) }
        #expect(error.code == .timedOut)
        #expect(RetryPolicy.isRetryable(error, method: .get))
    }

    @Test func aRefusedConnectionNamesTheHost() async throws {
        let error = try await #require(throws: HTTPError.self) {
            try await transport.send(HTTPRequest(url: URL(literal: "http://127.0.0.1:1/v1/clients?token=SECRET")))
        }
        #expect(error.code == .connectFailed)
        #expect(error.category == .network)
        #expect(error.description.contains("127.0.0.1:1"))
        #expect(!error.description.contains("SECRET"))
    }

    @Test func refusesResponsesLargerThanTheLimit() async throws {
        let request = HTTPRequest(url: url("/big?bytes=5000"), maxResponseBytes: 1000)
        let error = try await #require(throws: HTTPError.self) { try await transport.send(request) }
        #expect(error.code == .budgetExceeded)
    }

    @Test func returnsErrorStatusesWithRetryAfterAndReason() async throws {
        let response = try await transport.send(HTTPRequest(url: url("/status/503")))
        #expect(response.status == 503)
        #expect(response.retryAfter() == .seconds(7))
        #expect(response.serverReason == "busy")
    }

    @Test func aDownloadAnsweredWithAnEndlessErrorBodyStopsAndReportsTheStatus() async throws {
        // Without a stop, this transfer never ends (the suite's time limit fails it).
        let folder = TemporaryDirectory()
        let path = folder.appending("package.zip.part")
        let request = DownloadRequest(HTTPRequest(url: url("/status/500-endless")), to: path, maxFileBytes: 1000)
        let error = try await #require(throws: HTTPError.self) { try await transport.download(request, progress: nil) }
        #expect(error.status == 500, "\(error)")
        #expect(FileSystem.size(of: path) == 0)
    }

    @Test func servesManyConcurrentRequests() async throws {
        let transport = self.transport
        let statuses = try await withThrowingTaskGroup(of: Int.self) { group in
            for _ in 0..<24 { group.addTask { try await transport.send(HTTPRequest(url: url("/json"))).status } }
            return try await group.reduce(into: [Int]()) { $0.append($1) }
        }
        #expect(statuses == Array(repeating: 200, count: 24))
    }
}
