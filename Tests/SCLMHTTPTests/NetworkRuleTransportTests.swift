import Foundation
import SCLMCore
import SCLMHTTP
import SCLMTestSupport
import Testing

/// ``CurlTransport`` with a ``NetworkRule`` against hostile loopback servers (`Tests/Fixtures/http_fixture.py`
/// on 127.0.0.1 and on `[::1]`): every redirect hop and every connected address must pass the rule.
@Suite(
    .tags(.medium), .timeLimit(.minutes(1)),
    .enabled(if: Loopback.hasIPv6, "the kernel has no IPv6 loopback (::1), which half of these hops need")
) struct NetworkRuleTransportTests {
    /// The redirecting server, on 127.0.0.1.
    let hostile: ServerProcess
    /// The service the redirects aim at, on IPv6 loopback.
    let sixService: ServerProcess

    init() throws {
        hostile = try ServerProcess(script: "Tests/Fixtures/http_fixture.py")
        sixService = try ServerProcess(script: "Tests/Fixtures/http_fixture.py", arguments: ["--bind", "::1"])
    }

    private func transport(_ rule: String) throws -> CurlTransport {
        CurlTransport(configuration: .init(networkRule: try NetworkRule(parsing: rule)))
    }

    private func link(_ text: String) -> URL { URL(string: text) ?? hostile.url }

    private var hostilePort: Int { hostile.url.port ?? 0 }
    private var sixPort: Int { sixService.url.port ?? 0 }

    /// `path` on the hostile server redirecting (with `status`) to `target`.
    private func redirect(to target: String, status: Int = 302) -> URL {
        var components = URLComponents(string: hostile.url.absoluteString + "/redirect")
        components?.queryItems = [
            URLQueryItem(name: "to", value: target), URLQueryItem(name: "status", value: "\(status)"),
        ]
        return components?.url ?? hostile.url
    }

    private func refusal(_ transport: CurlTransport, _ request: HTTPRequest) async throws -> HTTPError {
        let error = try await #require(throws: HTTPError.self) { try await transport.send(request) }
        #expect(error.code == .destinationRefused, "\(error)")
        #expect(error.category == .policy)
        return error
    }

    @Test func aRedirectFromAListedAddressToANameLeadingToLoopbackIsRefused() async throws {
        let transport = try transport("127.0.0.1")
        let error = try await refusal(transport, HTTPRequest(url: redirect(to: "http://localhost:\(sixPort)/echo")))
        #expect(error.url.host() == "localhost")
        // The same allowlist still lets the listed address through, also across a redirect to itself.
        let allowed = try await transport.send(HTTPRequest(url: redirect(to: "/json")))
        #expect(allowed.status == 200)
        #expect(allowed.url.path() == "/json")
    }

    @Test func aRedirectToAnotherAddressFamilyIsRefused() async throws {
        _ = try await refusal(
            try transport("127.0.0.1"), HTTPRequest(url: redirect(to: sixService.url.absoluteString + "/echo")))
        _ = try await refusal(
            try transport("127.0.0.1"), HTTPRequest(url: redirect(to: "http://[::ffff:127.0.0.2]:\(sixPort)/")))
        let sixOnly = try transport("[::1]")
        #expect(try await sixOnly.send(HTTPRequest(url: link(sixService.url.absoluteString + "/json"))).status == 200)
        var components = URLComponents(string: sixService.url.absoluteString + "/redirect")
        components?.queryItems = [URLQueryItem(name: "to", value: hostile.url.absoluteString + "/echo")]
        _ = try await refusal(sixOnly, HTTPRequest(url: try #require(components?.url)))
    }

    @Test func withoutAListLoopbackIsRefusedAsALiteralAndAsANameWhenConnecting() async throws {
        let transport = try transport("")
        _ = try await refusal(transport, HTTPRequest(url: link(hostile.url.absoluteString + "/echo")))
        _ = try await refusal(transport, HTTPRequest(url: link(sixService.url.absoluteString + "/echo")))
        // A name passes the first check; the address libcurl is about to connect to does not.
        let named = try await refusal(transport, HTTPRequest(url: link("http://localhost:\(hostilePort)/echo")))
        #expect(named.description.contains("127.0.0.1 port \(hostilePort)"), "\(named)")
    }

    @Test func aWildcardNameThatResolvesToLoopbackIsRefusedWhenConnecting() async throws {
        // libcurl answers every *.localhost name with loopback itself, like a hostile DNS record would.
        let transport = try transport("*.localhost, 127.0.0.1:\(sixPort)")
        let error = try await refusal(transport, HTTPRequest(url: link("http://evil.localhost:\(hostilePort)/echo")))
        #expect(error.description.contains("port \(hostilePort)"))
        let listed = try self.transport("localhost:\(hostilePort)")
        #expect(try await listed.send(HTTPRequest(url: link("http://localhost:\(hostilePort)/json"))).status == 200)
    }

    @Test func hopsAreFollowedLikeLibcurlDoesWithoutCarryingCredentialsElsewhere() async throws {
        let transport = try transport("127.0.0.1, [::1]")
        let post = HTTPRequest(
            .post, url: redirect(to: sixService.url.absoluteString + "/echo", status: 303),
            headers: ["Authorization": "Bearer SECRET", "X-Deck": "cardiora"], body: Data("form".utf8))
        let response = try await transport.send(post)
        let echoed = try JSONValue.parse(response.body)
        #expect(echoed["method"]?.stringValue == "GET")
        #expect(echoed["body"]?.stringValue == "")
        #expect(echoed["headers"]?["authorization"] == nil)
        #expect(echoed["headers"]?["x-deck"]?.stringValue == "cardiora")
        let put = HTTPRequest(
            .put, url: redirect(to: "/echo", status: 307), headers: ["Authorization": "Bearer SAME"],
            body: Data("x".utf8))
        let kept = try JSONValue.parse(try await transport.send(put).body)
        #expect(kept["method"]?.stringValue == "PUT")
        #expect(kept["body"]?.stringValue == "x")
        #expect(kept["headers"]?["authorization"]?.stringValue == "Bearer SAME")
    }

    @Test func hopByHopStillStopsLoopsAndOtherSchemes() async throws {
        let transport = try transport("127.0.0.1")
        let loop = try await #require(throws: HTTPError.self) {
            try await transport.send(HTTPRequest(url: link(hostile.url.absoluteString + "/redirect-loop")))
        }
        #expect(loop.code == .tooManyRedirects)
        let ftp = try await #require(throws: HTTPError.self) {
            try await transport.send(HTTPRequest(url: link(hostile.url.absoluteString + "/redirect-ftp")))
        }
        #expect(ftp.code == .unsupportedScheme)
    }
}
