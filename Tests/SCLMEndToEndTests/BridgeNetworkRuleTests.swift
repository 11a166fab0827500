import Foundation
import SCLMCore
import SCLMTestSupport
import Testing

/// Hostile slides and a hostile server against `sclm bridge`'s HTTP network rule: redirects, loopback
/// literals of both families, and names that resolve to loopback.
@Suite(
    .tags(.large), .timeLimit(.minutes(1)),
    .enabled(if: Loopback.hasIPv6, "the kernel has no IPv6 loopback (::1), which the IPv6 attacks need")
) struct BridgeNetworkRuleTests {
    /// The hostile server slides call (redirects anywhere), on 127.0.0.1.
    let hostile: ServerProcess
    /// A local service that must stay out of content's reach, on 127.0.0.1 …
    let service: ServerProcess
    /// … and one on `[::1]`.
    let sixService: ServerProcess

    init() throws {
        hostile = try ServerProcess(script: "Tests/Fixtures/http_fixture.py")
        service = try ServerProcess(script: "Tests/Fixtures/http_fixture.py")
        sixService = try ServerProcess(script: "Tests/Fixtures/http_fixture.py", arguments: ["--bind", "::1"])
    }

    private func redirect(to target: String) -> String {
        var components = URLComponents(string: hostile.url.absoluteString + "/redirect")
        components?.queryItems = [URLQueryItem(name: "to", value: target)]
        return components?.url?.absoluteString ?? ""
    }

    /// Expects `command` on `url` to be refused with 403 naming the setting.
    private func expectRefused(
        _ bridge: BridgeSession, _ command: String, _ url: String, sourceLocation: SourceLocation = #_sourceLocation
    ) async {
        let answer = await bridge.call(command, ["url": url, "body": Data("{}".utf8).base64EncodedString()])
        #expect(answer?["ErrorCode"] as? Int == 403, "\(url): \(answer ?? [:])", sourceLocation: sourceLocation)
        let message = answer?["ErrorMessage"] as? String ?? ""
        #expect(message.contains("bridge.httpAllowedHosts"), "\(message)", sourceLocation: sourceLocation)
        #expect(answer?["Data"] as? [String: Any] == nil, sourceLocation: sourceLocation)
    }

    @Test func aRedirectCannotLeaveTheAllowlist() async throws {
        // The attack as found: the listed address redirects to a name (and an IPv6 literal) of loopback.
        let bridge = try await BridgeSession(settings: ["bridge.httpAllowedHosts": "127.0.0.1"])
        let servicePort = service.url.port ?? 0
        await expectRefused(bridge, "httpget", redirect(to: "http://localhost:\(servicePort)/echo"))
        await expectRefused(bridge, "httppost", redirect(to: sixService.url.absoluteString + "/echo"))
        // The listed address itself still answers, also through a redirect to another of its ports.
        let allowed = await bridge.call("httpget", ["url": redirect(to: service.url.absoluteString + "/json")])
        #expect(allowed?["ErrorCode"] as? Int == 200, "\(allowed ?? [:])")
        #expect(await bridge.process.finish() == 0)
    }

    @Test func aPortInTheAllowlistHoldsOnEveryHop() async throws {
        let bridge = try await BridgeSession(settings: [
            "bridge.httpAllowedHosts": "127.0.0.1:\(hostile.url.port ?? 0), [::1]"
        ])
        let servicePort = service.url.port ?? 0
        await expectRefused(bridge, "httpget", redirect(to: "http://127.0.0.1:\(servicePort)/echo"))
        await expectRefused(bridge, "httpget", redirect(to: "http://[::ffff:127.0.0.1]:\(servicePort)/echo"))
        await expectRefused(bridge, "httpget", redirect(to: "http://localhost:\(servicePort)/echo"))
        let six = await bridge.call("httpget", ["url": redirect(to: sixService.url.absoluteString + "/json")])
        #expect(six?["ErrorCode"] as? Int == 200, "\(six ?? [:])")
        #expect(await bridge.process.finish() == 0)
    }

    @Test func byDefaultContentReachesNoLocalService() async throws {
        let bridge = try await BridgeSession()
        let port = service.url.port ?? 0
        await expectRefused(bridge, "httppost", service.url.absoluteString + "/echo")
        await expectRefused(bridge, "httppost", sixService.url.absoluteString + "/echo")
        await expectRefused(bridge, "httpget", "http://[::ffff:127.0.0.1]:\(port)/echo")
        await expectRefused(bridge, "httpget", "http://0.0.0.0:\(port)/echo")
        // A name is refused on the address it resolves to, when libcurl is about to connect.
        await expectRefused(bridge, "httpput", "http://localhost:\(port)/echo")
        await expectRefused(bridge, "httpget", "http://evil.localhost:\(port)/echo")
        #expect(await bridge.process.finish() == 0)
    }

    @Test func aMalformedAllowlistStopsTheBridgeWithTheEntry() async throws {
        let folder = TemporaryDirectory()
        let home = folder.appending("home")
        try InstalledPresentationFixture().install(in: Home(root: home))
        // `sclm config set` refuses such a list; a hand-edited config.json still reaches the bridge.
        try Data(#"{"bridge.httpAllowedHosts": "127.0.0.1/40"}"#.utf8).write(
            to: URL(fileURLWithPath: home + "/config.json"))
        let result = try await ProcessRunner.sclm(["bridge", "--presentation", "10"], home: home)
        #expect(result.status == 64, "\(result)")
        #expect(result.stderr.contains("bridge.httpAllowedHosts cannot be read: '127.0.0.1/40'"), "\(result)")
    }
}
