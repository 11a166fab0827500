import Foundation
import SCLMBridge
import SCLMCore
import SCLMHTTP
import SCLMOSAM
import SCLMPolicy
import SCLMStore
import SCLMTestSupport
import Testing

@testable import SCLMBridgeModules

/// The OSAM module in process: a scripted backend (HTTP through ``FakeTransport``), a real store, events on a pipe.
final class OSAMHarness: Sendable {
    static let now: Int64 = 1_750_000_000_000
    let folder = TemporaryDirectory(prefix: "sclm-osam")
    let store: ContentStore
    let transport: FakeTransport
    static let versionBody =
        #"{"data":{"versionCode":2,"serverDate":1750000000000,"comparisonMode":"LAZY","title":"New","message":"Update","url":"https://apps.example/x"}}"#
    private let pipe = Pipe()
    let events: LineStream
    let output: BridgeOutput

    init() throws {
        store = try ContentStore(path: folder.appending("sclm.db"))
        transport = FakeTransport { request in
            if request.method == .head { return HTTPResponse(status: 404, url: request.url) }
            if request.url.path.hasPrefix("/api/rating/") {
                return .json(#"{"data":{"minutes":0,"numAperture":2}}"#, to: request)
            }
            return .json(OSAMHarness.versionBody, to: request)
        }
        output = BridgeOutput(fileDescriptor: pipe.fileHandleForWriting.fileDescriptor)
        events = LineStream(pipe.fileHandleForReading)
    }

    func module(
        _ settings: [String: String] = [
            "osam.endpoint": "http://127.0.0.1:9", "osam.package": "cat.bcn.demo", "osam.platform": "ios",
            "osam.versionCode": "100",
            "osam.versionName": "1.0.0", "app.name": "Kiosk",
        ]
    ) throws -> OSAMModule {
        let clock = FixedClock(epochMilliseconds: OSAMHarness.now)
        let service = OSAMService(
            store: store,
            backend: HTTPOSAMBackend(
                endpoint: URL(literal: "http://127.0.0.1:9"), credentials: nil, transport: transport),
            analytics: StoreAnalyticsProvider(store: store),
            messaging: StoreMessagingProvider(store: store, clock: clock), clock: clock,
            logger: Logger(minimumLevel: .error))
        return OSAMModule(
            service: service, settings: try OSAMModule.Settings(configuration: Configuration(stored: settings)),
            device: DeviceInformation(
                platformName: "Debian GNU/Linux", platformVersion: "12", platformModel: "kiosk-1"),
            deviceLanguage: "CA")
    }

    func call(_ module: OSAMModule, _ command: String, _ data: JSONValue = [:]) async throws -> BridgeReply {
        try await module.handle(
            BridgeRequest(command: command, data: data, guid: "g"),
            context: BridgeContext(guid: "g", output: output, logger: Logger()))
    }
}

@Suite(.tags(.medium)) struct OSAMModuleTests {
    @Test func versionControlAnswersTheAlertEmitsItAndRefusesASecondCheckUntilAnswered() async throws {
        let harness = try OSAMHarness()
        let module = try harness.module()
        let shown = try await harness.call(module, "osam.versionControl", ["language": "CA"])
        #expect(shown.code == 200)
        #expect(shown.data["result"] == "SHOW")
        #expect(shown.data["alert"]?["mode"] == "LAZY")
        #expect(shown.data["alert"]?["checkboxLabel"] == "No mostrar de nou")
        let event = try #require(await harness.events.event("osamAlert"))
        #expect((event["Data"] as? [String: Any])?["mode"] as? String == "LAZY")

        let requestsBefore = harness.transport.requests.count
        let pending = try await harness.call(module, "osam.versionControl")
        #expect(pending.data == ["result": "ERROR", "alert": nil, "reason": "alert-pending"])
        #expect(harness.transport.requests.count == requestsBefore, "no fetch while an alert waits")

        let answer = try await harness.call(
            module, "osam.versionControlAnswer", ["choice": "OK", "dontShowAgain": true])
        #expect(answer.data == ["response": "ACCEPTED", "openUrl": "https://apps.example/x"])
        let after = try await harness.call(module, "osam.versionControl")
        #expect(after.data == ["result": "DISMISSED", "alert": nil, "reason": "dont-show-again"])
    }

    @Test func answersAreValidatedAndAnUnknownLanguageMeansEnglish() async throws {
        let harness = try OSAMHarness()
        let module = try harness.module()
        await #expect(throws: BridgeError.self) {
            try await harness.call(module, "osam.versionControlAnswer", ["choice": "later"])
        }
        let none = try await #require(throws: SCLMError.self) {
            try await harness.call(module, "osam.versionControlAnswer", ["choice": "ok"])
        }
        #expect(BridgeError.Code(for: none) == .notFound)
        let shown = try await harness.call(module, "osam.versionControl", ["language": "fr"])
        #expect(shown.data["alert"]?["checkboxLabel"] == "Don't show again")
        #expect(
            try await harness.call(module, "osam.versionControlAnswer", ["choice": "cancel"]).data["response"]
                == "CANCELLED")
    }

    @Test func ratingInformationTopicsTokenAndReachability() async throws {
        let harness = try OSAMHarness()
        let module = try harness.module()
        #expect(try await harness.call(module, "osam.rating").data == ["response": "DISMISSED"])
        #expect(try await harness.call(module, "osam.rating").data == ["response": "ACCEPTED"])
        #expect(
            try await harness.call(module, "osam.deviceInformation").data
                == ["platformName": "Debian GNU/Linux", "platformVersion": "12", "platformModel": "kiosk-1"])
        #expect(
            try await harness.call(module, "osam.appInformation").data
                == ["appName": "Kiosk", "appVersionName": "1.0.0", "appVersionCode": "100"])
        #expect(
            try await harness.call(module, "osam.firstTimeOrUpdateEvent", ["language": "ca"]).data
                == ["response": "SUCCESS", "subscribed": ["demo_1.0.0_100_CA", "CA"], "unsubscribed": []])
        #expect(
            try await harness.call(module, "osam.changeLanguageEvent", ["language": "ES"]).data
                == [
                    "response": "SUCCESS", "subscribed": ["demo_1.0.0_100_ES", "ES"],
                    "unsubscribed": ["demo_1.0.0_100_CA", "CA"],
                ])
        #expect(
            try await harness.call(module, "osam.changeLanguageEvent", ["language": "es"]).data["response"]
                == "UNCHANGED")
        #expect(
            try await harness.call(module, "osam.subscribeToCustomTopic", ["topic": "news"]).data["subscribed"] == [
                "news"
            ])
        #expect(
            try await harness.call(module, "osam.unsubscribeToCustomTopic", ["topic": "news"]).data["unsubscribed"] == [
                "news"
            ])
        await #expect(throws: SCLMError.self) {
            try await harness.call(module, "osam.subscribeToCustomTopic", ["topic": "a b"])
        }
        await #expect(throws: BridgeError.self) { try await harness.call(module, "osam.subscribeToCustomTopic", [:]) }
        let token = try await harness.call(module, "osam.getToken").data["token"]?.stringValue
        #expect(token.flatMap(UUID.init(uuidString:)) != nil)
        #expect(try await harness.call(module, "osam.getToken").data["token"]?.stringValue == token)
        #expect(try await harness.call(module, "osam.isOnline").data == ["online": true])
    }

    struct MissingSetting: Sendable, CustomTestStringConvertible {
        let key: String
        let command: String
        var testDescription: String { "\(command) without \(key)" }
    }

    @Test(arguments: [
        MissingSetting(key: "osam.endpoint", command: "osam.versionControl"),
        MissingSetting(key: "osam.package", command: "osam.rating"),
        MissingSetting(key: "osam.platform", command: "osam.rating"),
        MissingSetting(key: "osam.versionCode", command: "osam.firstTimeOrUpdateEvent"),
    ])
    func aMissingSettingAnswers503NamingIt(_ test: MissingSetting) async throws {
        let harness = try OSAMHarness()
        var settings = [
            "osam.endpoint": "http://127.0.0.1:9", "osam.package": "p", "osam.platform": "IOS", "osam.versionCode": "1",
        ]
        settings[test.key] = nil
        let error = try await #require(throws: BridgeError.self) {
            try await harness.call(harness.module(settings), test.command)
        }
        #expect(error.code == .unavailable)
        #expect(error.message.contains("sclm config set \(test.key)"))
    }
}
