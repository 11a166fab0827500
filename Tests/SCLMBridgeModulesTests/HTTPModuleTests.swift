import Foundation
import SCLMBridge
@testable import SCLMBridgeModules
import SCLMCore
import SCLMHTTP
import SCLMTestSupport
import Testing

@Suite(.tags(.small)) struct HTTPModuleTests {
    private func call(
        _ module: HTTPModule, _ command: String, _ data: JSONValue
    ) async throws -> BridgeReply {
        let output = BridgeOutput(fileDescriptor: -1)
        return try await module.handle(
            BridgeRequest(command: command, data: data, guid: "h"), context: BridgeContext(guid: "h", output: output, logger: Logger()))
    }

    @Test func postsTheDecodedBodyAndAnswersWithTheRealStatusAndABase64Body() async throws {
        let transport = FakeTransport { request in
            HTTPResponse(status: 201, headers: ["X-Echo": "yes", "Set-Cookie": "a=1", "set-cookie": "b=2"], body: Data("Grüße".utf8), url: request.url)
        }
        let module = HTTPModule(transport: transport)
        let reply = try await call(
            module, "httppost",
            ["url": "https://api.example.com/posts", "body": .string(Data("héllo".utf8).base64EncodedString()),
             "headers": ["Content-Type": "application/json", "X-Count": 3]])
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
        let module = HTTPModule(transport: FakeTransport { HTTPResponse(status: 404, body: Data("gone".utf8), url: $0.url) })
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
        Refusal(data: ["url": "https://api.example.com/", "headers": ["X-Bad": "a\r\nInjected: 1"]], code: .badRequest),
        Refusal(data: ["url": "https://api.example.com/", "headers": ["bad name": "v"]], code: .badRequest),
        Refusal(data: ["url": "https://api.example.com/", "body": "%%%not base64%%%"], code: .badRequest),
        Refusal(data: [:], code: .badRequest),
    ])
    func refusesWhatThePolicyForbidsWithoutSendingAnything(_ refusal: Refusal) async {
        let transport = FakeTransport { HTTPResponse(status: 200, url: $0.url) }
        let module = HTTPModule(transport: transport, policy: HTTPModule.Policy(allowedHosts: ["api.example.com", "*.cdn.example.com"]))
        let error = await #expect(throws: BridgeError.self) { try await call(module, "httppost", refusal.data) }
        #expect(error?.code == refusal.code)
        #expect(transport.requests.isEmpty)
    }

    @Test func allowListMatchesExactHostsAndWildcardSubdomains() {
        let policy = HTTPModule.Policy(allowedHosts: ["api.example.com", "*.cdn.example.com"])
        #expect(policy.allows("API.example.com"))
        #expect(policy.allows("eu.cdn.example.com"))
        #expect(!policy.allows("cdn.example.com"))
        #expect(!policy.allows("example.com"))
        #expect(HTTPModule.Policy().allows("anything.example"))
        let configured = HTTPModule.Policy(configuration: Configuration(stored: ["bridge.httpAllowedHosts": " a.example , *.b.example "]))
        #expect(configured.allowedHosts == ["a.example", "*.b.example"])
    }

    @Test func transportFailuresMapToGatewayCodes() async {
        let timedOut = HTTPModule(transport: FakeTransport { throw HTTPError(.timedOut, method: $0.method, url: $0.url, detail: "no answer") })
        let timeout = await #expect(throws: BridgeError.self) { try await call(timedOut, "httpget", ["url": "http://example.com/"]) }
        #expect(timeout?.code == .timeout)
        let offline = HTTPModule(transport: FakeTransport { throw HTTPError(.connectFailed, method: $0.method, url: $0.url, detail: "refused") })
        let gateway = await #expect(throws: BridgeError.self) { try await call(offline, "httpdelete", ["url": "http://example.com/"]) }
        #expect(gateway?.code == .badGateway)
    }
}
