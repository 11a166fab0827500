import Foundation
import SCLMAnalytics
import SCLMCore
import SCLMTestSupport
import Testing

@Suite(.tags(.small)) struct StoryIoTCredentialsTests {
    static let complete = [
        "iot.endpoint": "https://iot.example.test/", "iot.hub": "hub", "iot.key": "key", "iot.secret": "secret",
    ]

    @Test func nothingSetMeansPublishingIsOff() throws {
        #expect(try StoryIoTCredentials.load(from: Configuration()) == nil)
    }

    @Test func completeSettingsLoadWithTheDefaultExpiration() throws {
        let credentials = try #require(try StoryIoTCredentials.load(from: Configuration(stored: Self.complete)))
        #expect(credentials.endpoint.absoluteString == "https://iot.example.test")
        #expect(credentials.hub == "hub" && credentials.key == "key" && credentials.expiration == .seconds(180))
    }

    @Test func environmentOverridesTheFile() throws {
        let configuration = Configuration(
            stored: Self.complete, environment: ["SCLM_IOT_SECRET": "from-env", "SCLM_IOT_HUB": "other"])
        let credentials = try #require(try StoryIoTCredentials.load(from: configuration))
        #expect(credentials.hub == "other")
        let url = credentials.publishURL(now: Date(timeIntervalSince1970: 0))
        let items = URLComponents(url: url, resolvingAgainstBaseURL: false)?.queryItems ?? []
        let expiration = try #require(items.first { $0.name == "expiration" }?.value)
        #expect(
            items.first { $0.name == "signature" }?.value
                == StoryIoTSignature.sign(key: "key", expiration: expiration, secret: "from-env"))
    }

    @Test func partialSettingsNameWhatIsMissing() throws {
        var stored = Self.complete
        stored["iot.secret"] = nil
        stored["iot.key"] = " "
        let error = try #require(throws: AnalyticsError.self) {
            try StoryIoTCredentials.load(from: Configuration(stored: stored))
        }
        #expect(error.code == .notConfigured && error.category == .usage)
        #expect(error.description.contains("iot.key, iot.secret are not set"))
    }

    @Test(arguments: [
        ("iot.endpoint", "ftp://iot.example.test"), ("iot.endpoint", "not a url"),
        ("iot.expiration", "0"), ("iot.expiration", "soon"),
    ])
    func malformedSettingsAreRefused(key: String, value: String) throws {
        var stored = Self.complete
        stored[key] = value
        let error = try #require(throws: AnalyticsError.self) {
            try StoryIoTCredentials.load(from: Configuration(stored: stored))
        }
        #expect(error.description.contains(key))
        #expect(!error.description.contains("secret'"))
    }
}
