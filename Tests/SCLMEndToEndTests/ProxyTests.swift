import Foundation
import SCLMCore
import SCLMTestSupport
import Testing

/// `http.proxy` against the proxy variables libcurl reads, and the bridge's HTTP module, which ignores
/// both unless `bridge.httpProxy` is set: recording proxies on loopback tell which one each request took.
@Suite(.tags(.large), .timeLimit(.minutes(1))) struct ProxyTests {
    /// The proxy the environment variables name.
    let variableProxy: RecordingProxy
    /// The proxy `http.proxy` (or `bridge.httpProxy`) names.
    let configuredProxy: RecordingProxy

    init() throws {
        variableProxy = try RecordingProxy()
        configuredProxy = try RecordingProxy(expectedUser: "fleet:proxy-pass")
    }

    /// Every variable libcurl reads, pointing at ``variableProxy``, with a `no_proxy` that would bypass it.
    private var proxyVariables: [String: String] {
        let url = variableProxy.server.url.absoluteString
        return ["http_proxy": url, "https_proxy": url, "HTTPS_PROXY": url, "no_proxy": "127.0.0.1"]
    }

    @Test func httpProxyOverridesTheProxyVariablesAndSendsItsCredentials() async throws {
        let server = try await DevServer.start()
        let folder = TemporaryDirectory()
        let home = folder.appending("home")
        for (key, value) in [("http.proxy", configuredProxy.server.url.absoluteString), ("http.noProxy", "")] {
            #expect(try await ProcessRunner.sclm(["config", "set", key, value], home: home).status == 0)
        }
        let refused = try await ProcessRunner.sclm(
            ["config", "set", "http.proxyCredentials", "fleet:proxy-pass"], home: home)
        #expect(refused.status == 64, "a secret on the command line: \(refused)")
        let stored = try await ProcessRunner.sclm(
            ["config", "set", "http.proxyCredentials", "-"], home: home, stdin: "fleet:proxy-pass\n")
        #expect(stored.status == 0, "\(stored)")
        let shown = try await ProcessRunner.sclm(["config", "get", "http.proxyCredentials"], home: home)
        #expect(!shown.stdout.contains("proxy-pass"), "\(shown.stdout)")

        let login = try await ProcessRunner.sclm(
            ["login", "--service"], home: home, environment: server.environment.merging(proxyVariables) { $1 })
        #expect(login.status == 0, "\(login)")
        let taken = configuredProxy.requests()
        #expect(taken.contains { $0.url.hasSuffix("/connect/token") && $0.method == "POST" }, "\(taken)")
        #expect(taken.allSatisfy { $0.hadCredentials }, "\(taken)")
        #expect(variableProxy.requests().isEmpty)
        #expect(!login.stderr.contains("proxy-pass"))
    }

    @Test func anHTTPSProxyIsTrustedThroughHTTPCABundleOnly() async throws {
        let server = try await DevServer.start()
        let folder = TemporaryDirectory()
        let certificate = try SelfSignedCertificate(in: folder)
        let proxy = try RecordingProxy(tls: (certificate.certificatePath, certificate.keyPath))
        let home = folder.appending("home")
        #expect(proxy.server.url.scheme == "https")
        let proxyURL = proxy.server.url.absoluteString
        #expect(try await ProcessRunner.sclm(["config", "set", "http.proxy", proxyURL], home: home).status == 0)
        let untrusted = try await ProcessRunner.sclm(
            ["login", "--service"], home: home, environment: server.environment)
        #expect(untrusted.status != 0, "an https proxy nobody trusts: \(untrusted)")
        #expect(proxy.requests().isEmpty)
        let bundle = certificate.certificatePath
        #expect(try await ProcessRunner.sclm(["config", "set", "http.caBundle", bundle], home: home).status == 0)
        let trusted = try await ProcessRunner.sclm(["login", "--service"], home: home, environment: server.environment)
        #expect(trusted.status == 0, "\(trusted)")
        #expect(proxy.requests().contains { $0.url.hasSuffix("/connect/token") }, "\(proxy.requests())")
    }

    @Test func aProxyURLWithCredentialsIsRefusedBeforeAnyRequest() async throws {
        let folder = TemporaryDirectory()
        let home = folder.appending("home")
        let port = configuredProxy.server.url.port ?? 0
        let url = "http://fleet:proxy-pass@127.0.0.1:\(port)"
        let refused = try await ProcessRunner.sclm(["config", "set", "http.proxy", url], home: home)
        #expect(refused.status == 64 && refused.stderr.contains("http.proxyCredentials"), "\(refused)")
        #expect(!refused.stderr.contains("proxy-pass"))
        // Written into config.json by hand, it is refused when it is used.
        try FileManager.default.createDirectory(atPath: home, withIntermediateDirectories: true)
        try Data("{\"http.proxy\":\"\(url)\"}".utf8).write(to: URL(fileURLWithPath: home + "/config.json"))
        let login = try await ProcessRunner.sclm(
            ["login", "--service"], home: home,
            environment: ["SCLM_AUTH_URL": "http://127.0.0.1:9", "SCLM_CLIENT_ID": "c", "SCLM_CLIENT_SECRET": "s"])
        #expect(login.status == 64, "\(login)")
        #expect(login.stderr.contains("http.proxyCredentials"), "\(login.stderr)")
        #expect(!login.stderr.contains("proxy-pass"))
        #expect(configuredProxy.requests().isEmpty)
    }

    @Test func theBridgeIgnoresTheProxyVariablesAndHTTPProxy() async throws {
        let service = try ServerProcess(script: "Tests/Fixtures/http_fixture.py")
        let bridge = try await BridgeSession(
            environment: proxyVariables,
            settings: [
                "bridge.httpAllowedHosts": "127.0.0.1", "http.proxy": configuredProxy.server.url.absoluteString,
            ])
        let answer = await bridge.call("httpget", ["url": service.url.absoluteString + "/json"])
        #expect(answer?["ErrorCode"] as? Int == 200, "\(answer ?? [:])")
        #expect(await bridge.process.finish() == 0)
        #expect(variableProxy.requests().isEmpty)
        #expect(configuredProxy.requests().isEmpty)
    }

    @Test func bridgeHTTPProxySendsTheBridgesRequestsThroughIt() async throws {
        let service = try ServerProcess(script: "Tests/Fixtures/http_fixture.py")
        let bridge = try await BridgeSession(
            environment: proxyVariables,
            settings: [
                "bridge.httpAllowedHosts": "127.0.0.1", "bridge.httpProxy": configuredProxy.server.url.absoluteString,
            ])
        let url = service.url.absoluteString + "/json"
        let answer = await bridge.call("httpget", ["url": url])
        #expect(answer?["ErrorCode"] as? Int == 200, "\(answer ?? [:])")
        #expect(await bridge.process.finish() == 0)
        #expect(configuredProxy.requests().map(\.url) == [url])
        #expect(variableProxy.requests().isEmpty)
    }
}

/// `Tests/Fixtures/proxy_fixture.py`: a forward proxy on loopback that records each request it forwards.
struct RecordingProxy {
    /// One forwarded request.
    struct Request: Decodable, CustomStringConvertible {
        let method: String
        let url: String
        /// Whether it carried the expected `Proxy-Authorization`.
        let hadCredentials: Bool
        var description: String { "\(method) \(url)" }

        private enum CodingKeys: String, CodingKey {
            case method, url
            case hadCredentials = "proxyAuthorization"
        }
    }

    let server: ServerProcess
    private let folder = TemporaryDirectory(prefix: "sclm-proxy")
    private let logPath: String

    /// Starts the fixture; with `expectedUser` (`user:password`) it checks the credentials it is sent, with
    /// `tls` (certificate and key files) clients reach it over https.
    init(expectedUser: String? = nil, tls: (certificate: String, key: String)? = nil) throws {
        logPath = folder.appending("requests.jsonl")
        let user = expectedUser.map { ["--expect-user", $0] } ?? []
        let https = tls.map { ["--tls", $0.certificate, $0.key] } ?? []
        server = try ServerProcess(
            script: "Tests/Fixtures/proxy_fixture.py", arguments: ["--log", logPath] + user + https)
    }

    /// The requests forwarded so far.
    func requests() -> [Request] {
        let text = (try? String(contentsOfFile: logPath, encoding: .utf8)) ?? ""
        return text.split(separator: "\n").compactMap { try? JSONDecoder().decode(Request.self, from: Data($0.utf8)) }
    }
}
