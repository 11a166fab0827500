import Foundation
import SCLMCore
import SCLMHTTP
import SCLMTestSupport
import Testing

/// TLS verification is always on; a private CA is trusted only through the configured bundle.
@Suite(.tags(.medium), .timeLimit(.minutes(1))) struct TLSTests {
    let folder = TemporaryDirectory()
    let fixture: ServerProcess
    var certificate: String { folder.appending("cert.pem") }

    init() throws {
        let generated = try SelfSignedCertificate(in: folder)
        fixture = try ServerProcess(
            script: "Tests/Fixtures/http_fixture.py",
            arguments: ["--tls", generated.certificatePath, generated.keyPath])
    }

    @Test func refusesACertificateNobodyTrusts() async throws {
        let error = try await #require(throws: HTTPError.self) {
            try await CurlTransport().send(HTTPRequest(url: fixture.url.appending(path: "json")))
        }
        #expect(error.code == .tls)
        #expect(error.description.contains("http.caBundle"))
        #expect(!RetryPolicy.isRetryable(error, method: .get))
    }

    @Test func trustsAPrivateCAFromTheConfiguredBundle() async throws {
        let transport = CurlTransport(configuration: .init(caBundlePath: certificate))
        let response = try await transport.send(HTTPRequest(url: fixture.url.appending(path: "json")))
        #expect(response.status == 200)
        #expect(response.url.scheme == "https")
    }
}
