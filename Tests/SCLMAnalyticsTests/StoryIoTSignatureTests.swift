import Foundation
import SCLMAnalytics
import SCLMCore
import SCLMTestSupport
import Testing

@Suite(.tags(.small)) struct StoryIoTSignatureTests {
    /// Python's `hmac` over the documented string, base64 with `+`→`-` and `/`→`_` (padding kept).
    static func pythonSignature(key: String, expiration: String, secret: String) throws -> String {
        let script = """
            import base64, hashlib, hmac, sys
            key, expiration, secret = sys.argv[1:4]
            digest = hmac.new(secret.encode(), ("key=" + key + "expiration=" + expiration).encode(), hashlib.sha512)
            print(base64.b64encode(digest.digest()).decode().replace("+", "-").replace("/", "_"), end="")
            """
        let result = try ProcessRunner.run(ProcessRunner.python, ["-c", script, key, expiration, secret])
        try #require(result.status == 0, "\(result)")
        return result.stdout
    }

    @Test(arguments: [
        ("demo-iot-key", "2026-03-01T09:02:49Z", "demo-iot-secret"),
        ("df94b12c3355425eb4efa406f09e8b9f", "2020-05-28T09:02:49.5754586Z", "s3cr3t+/=ключ"),
        ("k", "2030-01-01T00:00:00Z", String(repeating: "long secret ", count: 20)),
    ])
    func matchesAnIndependentHMACSHA512(key: String, expiration: String, secret: String) throws {
        let expected = try Self.pythonSignature(key: key, expiration: expiration, secret: secret)
        #expect(StoryIoTSignature.sign(key: key, expiration: expiration, secret: secret) == expected)
    }

    @Test func matchesAFixedVector() {
        // python3 -c 'import base64,hashlib,hmac; print(base64.b64encode(hmac.new(b"demo-iot-secret",
        //   b"key=demo-iot-keyexpiration=2024-01-01T00:00:00Z", hashlib.sha512).digest()).decode()
        //   .replace("+","-").replace("/","_"))'
        let signature = StoryIoTSignature.sign(
            key: "demo-iot-key", expiration: "2024-01-01T00:00:00Z", secret: "demo-iot-secret")
        #expect(signature == Self.fixedVector)
        #expect(signature.hasSuffix("=="))
        #expect(!signature.contains("+") && !signature.contains("/"))
    }

    static let fixedVector = "f31lcMI-i3rVc7I7Kq_SsZqAcuWSQtLagynjzXPu0MJ1ZN5oEsOM7CLratTBg3Si9nLSAf6m5iGpOIwhmENfrA=="

    @Test func expirationIsUTCWholeSecondsAfterNow() {
        let now = Date(timeIntervalSince1970: 1_772_356_969.75)  // 2026-03-01T09:22:49.75Z
        #expect(StoryIoTSignature.expiration(at: now, validFor: .seconds(180)) == "2026-03-01T09:25:49Z")
    }

    @Test func publishURLCarriesKeyExpirationAndSignatureEscaped() throws {
        let credentials = StoryIoTCredentials(
            endpoint: try #require(URL(string: "https://iot.example.test/base")), hub: "hub one", key: "k+y",
            secret: "secret", expiration: .seconds(60))
        let now = Date(timeIntervalSince1970: 1_772_356_969)
        let url = credentials.publishURL(now: now)
        let expiration = "2026-03-01T09:23:49Z"
        let signature = StoryIoTSignature.sign(key: "k+y", expiration: expiration, secret: "secret")
        #expect(url.absoluteString.hasPrefix("https://iot.example.test/base/hub%20one/publish/?key=k%2By&expiration="))
        let items = try #require(URLComponents(url: url, resolvingAgainstBaseURL: false)?.queryItems)
        #expect(items.map(\.name) == ["key", "expiration", "signature"])
        #expect(items.map(\.value) == ["k+y", expiration, signature])
        #expect(!credentials.description.contains("secret"))
    }
}
