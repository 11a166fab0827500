import Foundation
import SCLMBridge
import SCLMCore
import SCLMHTTP
import SCLMTestSupport
import Testing

@testable import SCLMBridgeModules

@Suite(.tags(.small)) struct HTTPModuleTests {
    private func call(
        _ module: HTTPModule, _ command: String, _ data: JSONValue
    ) async throws -> BridgeReply {
        let output = BridgeOutput(fileDescriptor: -1)
        return try await module.handle(
            BridgeRequest(command: command, data: data, guid: "h"),
            context: BridgeContext(guid: "h", output: output, logger: Logger()))
    }

    @Test func postsTheDecodedBodyAndAnswersWithTheRealStatusAndABase64Body() async throws {
        let transport = FakeTransport { request in
            HTTPResponse(
                status: 201, headers: ["X-Echo": "yes", "Set-Cookie": "a=1", "set-cookie": "b=2"],
                body: Data("Grüße".utf8), url: request.url)
        }
        let module = HTTPModule(transport: transport)
        let reply = try await call(
            module, "httppost",
            [
                "url": "https://api.example.com/posts", "body": .string(Data("héllo".utf8).base64EncodedString()),
                "headers": ["Content-Type": "application/json", "X-Count": 3],
            ])
        #expect(reply.code == 201)
        #expect(reply.status == "created")
        #expect(reply.data["body"]?.stringValue == Data("Grüße".utf8).base64EncodedString())
        #expect(reply.data["headers"]?["X-Echo"] == "yes")
        let sent = try #require(transport.requests.first)
        #expect(sent.method == .post)
        #expect(sent.body == Data("héllo".utf8))
        #expect(sent.headers["content-type"] == "application/json")
        #expect(sent.headers["X-Count"] == "3")
        #expect(sent.timeout == .seconds(25))
    }

    @Test func aFailingStatusIsPassedThroughWithItsBody() async throws {
        let module = HTTPModule(
            transport: FakeTransport { HTTPResponse(status: 404, body: Data("gone".utf8), url: $0.url) })
        let reply = try await call(module, "httpget", ["url": "http://example.com/x"])
        #expect(reply.code == 404)
        #expect(reply.status == "not found")
        #expect(reply.data["body"]?.stringValue == Data("gone".utf8).base64EncodedString())
    }

    struct Refusal: Sendable, CustomTestStringConvertible {
        let data: JSONValue
        let code: BridgeError.Code
        var testDescription: String { String(decoding: JSONWriter.bytes(data), as: UTF8.self) }
    }

    @Test(arguments: [
        Refusal(data: ["url": "file:///etc/passwd"], code: .badRequest),
        Refusal(data: ["url": "ftp://example.com/x"], code: .badRequest),
        Refusal(data: ["url": "not a url"], code: .badRequest),
        Refusal(data: ["url": "https://evil.example.net/"], code: .forbidden),
        Refusal(data: ["url": "https://api.example.com:8443/"], code: .forbidden),
        Refusal(data: ["url": "http://127.0.0.1/"], code: .forbidden),
        Refusal(
            data: ["url": "https://api.example.com/", "headers": ["X-Bad": "a\r\nInjected: 1"]], code: .badRequest),
        Refusal(data: ["url": "https://api.example.com/", "headers": ["bad name": "v"]], code: .badRequest),
        Refusal(data: ["url": "https://api.example.com/", "body": "%%%not base64%%%"], code: .badRequest),
        Refusal(data: [:], code: .badRequest),
    ])
    func refusesWhatThePolicyForbidsWithoutSendingAnything(_ refusal: Refusal) async throws {
        let transport = FakeTransport { HTTPResponse(status: 200, url: $0.url) }
        let rule = try NetworkRule(parsing: "api.example.com:443, *.cdn.example.com")
        let module = HTTPModule(transport: transport, policy: HTTPModule.Policy(rule: rule))
        let error = await #expect(throws: BridgeError.self) { try await call(module, "httppost", refusal.data) }
        #expect(error?.code == refusal.code)
        #expect(transport.requests.isEmpty)
    }

    /// Without `bridge.httpAllowedHosts`, a browser's private-network rule: every spelling of a loopback,
    /// private, link-local or unspecified address is refused before anything is sent.
    @Test(arguments: [
        "http://127.0.0.1:8080/_control", "http://127.9.9.9/", "http://[::1]:8080/", "http://[::ffff:127.0.0.1]/",
        "http://[::ffff:7f00:1]/", "http://10.1.2.3/", "http://172.16.0.1/", "http://172.31.255.255/",
        "http://192.168.1.1/", "http://169.254.169.254/latest/meta-data/", "http://[fe80::1]/", "http://[fd00::2]/",
        "http://0.0.0.0:8080/", "http://[::]/", "https://[::ffff:10.0.0.1]/",
    ])
    func theDefaultRuleRefusesLocalAddressesNamingTheSetting(_ url: String) async {
        let transport = FakeTransport { HTTPResponse(status: 200, url: $0.url) }
        let error = await #expect(throws: BridgeError.self) {
            try await call(HTTPModule(transport: transport), "httppost", ["url": .string(url)])
        }
        #expect(error?.code == .forbidden)
        #expect(error?.message.contains("bridge.httpAllowedHosts") == true)
        #expect(transport.requests.isEmpty)
    }

    @Test func theDefaultRuleLetsPublicHostsThrough() async throws {
        let transport = FakeTransport { HTTPResponse(status: 200, url: $0.url) }
        let module = HTTPModule(transport: transport)
        for url in ["https://api.example.com/", "http://8.8.8.8/", "http://172.32.0.1/", "http://[2001:db8::1]/"] {
            #expect(try await call(module, "httpget", ["url": .string(url)]).code == 200, "\(url)")
        }
        #expect(transport.requests.count == 4)
    }

    @Test func theConfigurationGivesTheRuleAndRefusesAMalformedList() throws {
        let configured = try HTTPModule.Policy(
            configuration: Configuration(stored: ["bridge.httpAllowedHosts": " a.example , *.b.example "]))
        #expect(
            configured.rule == NetworkRule(entries: [.init(.name("a.example")), .init(.subdomains(of: "b.example"))]))
        #expect(try HTTPModule.Policy(configuration: Configuration(stored: [:])).rule == .publicOnly)
        let error = try #require(throws: SCLMError.self) {
            try HTTPModule.Policy(
                configuration: Configuration(stored: ["bridge.httpAllowedHosts": "a.example, 10.0.0.0/33"]))
        }
        #expect(error.category == .usage)
        #expect(error.description.contains("'10.0.0.0/33'"))
    }

    @Test func aDestinationTheTransportRefusesIsForbidden() async {
        let refused = HTTPModule(
            transport: FakeTransport {
                throw HTTPError(
                    .destinationRefused, method: $0.method, url: $0.url, detail: "localhost leads to 127.0.0.1 port 80")
            })
        let error = await #expect(throws: BridgeError.self) {
            try await call(refused, "httpget", ["url": "http://example.com/"])
        }
        #expect(error?.code == .forbidden)
        #expect(error?.message.contains("localhost leads to 127.0.0.1 port 80") == true)
        #expect(error?.message.contains("bridge.httpAllowedHosts") == true)
    }

    @Test func transportFailuresMapToGatewayCodes() async {
        let timedOut = HTTPModule(
            transport: FakeTransport { throw HTTPError(.timedOut, method: $0.method, url: $0.url, detail: "no answer") }
        )
        let timeout = await #expect(throws: BridgeError.self) {
            try await call(timedOut, "httpget", ["url": "http://example.com/"])
        }
        #expect(timeout?.code == .timeout)
        let offline = HTTPModule(
            transport: FakeTransport {
                throw HTTPError(.connectFailed, method: $0.method, url: $0.url, detail: "refused")
            })
        let gateway = await #expect(throws: BridgeError.self) {
            try await call(offline, "httpdelete", ["url": "http://example.com/"])
        }
        #expect(gateway?.code == .badGateway)
    }
}
