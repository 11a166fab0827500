import Foundation
import SCLMCore
import SCLMHTTP
import SCLMTestSupport
import Testing

/// Several ``CurlTransport`` views on one ``CurlEngine``: each keeps its own policy, cookies and
/// connections, and the engine's owner ends it with ``CurlEngine/shutdown()``.
@Suite(.tags(.medium), .timeLimit(.minutes(1))) struct CurlEngineTests {
    let fixture: ServerProcess

    init() throws {
        fixture = try ServerProcess(script: "Tests/Fixtures/http_fixture.py")
    }

    private func url(_ path: String, host: String = "127.0.0.1") -> URL {
        URL(string: "http://\(host):\(fixture.url.port ?? 0)\(path)") ?? fixture.url
    }

    @Test func transportsOnOneEngineKeepTheirCookiesApart() async throws {
        let engine = CurlEngine()
        let api = CurlTransport(engine: engine)
        let content = CurlTransport(engine: engine)
        _ = try await api.send(HTTPRequest(url: url("/cookie")))
        let fromAPI = try JSONValue.parse(try await api.send(HTTPRequest(url: url("/echo"))).body)
        let fromContent = try JSONValue.parse(try await content.send(HTTPRequest(url: url("/echo"))).body)
        await engine.shutdown()
        #expect(fromAPI["headers"]?["cookie"]?.stringValue == "fixture_session=abc123")
        #expect(fromContent["headers"]?["cookie"] == nil)
    }

    @Test func aConnectionOpenedWithoutTheRuleIsNeverReusedUnderIt() async throws {
        let engine = CurlEngine()
        let open = CurlTransport(engine: engine)
        let ruled = CurlTransport(engine: engine, configuration: .init(networkRule: .publicOnly))
        // `localhost` passes the rule by name; only the connection check refuses its loopback address.
        let target = url("/json", host: "localhost")
        #expect(try await open.send(HTTPRequest(url: target)).status == 200)
        let error = await #expect(throws: HTTPError.self) { try await ruled.send(HTTPRequest(url: target)) }
        await engine.shutdown()
        #expect(error?.code == .destinationRefused)
    }

    @Test func afterShutdownARequestFailsWithCancellation() async throws {
        let engine = CurlEngine()
        let transport = CurlTransport(engine: engine)
        #expect(try await transport.send(HTTPRequest(url: url("/json"))).status == 200)
        await engine.shutdown()
        await engine.shutdown()  // a second call returns at once
        await #expect(throws: CancellationError.self) { try await transport.send(HTTPRequest(url: url("/json"))) }
    }
}
