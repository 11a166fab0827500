import Foundation
import SCLMCore
import SCLMOSAM
import SCLMPolicy
import SCLMStore
import SCLMTestSupport
import Synchronization

/// A scripted backend: fixed answers, counted calls.
final class FakeBackend: OSAMBackend {
    struct Script: Sendable {
        var online = true
        var version: FetchResult<VersionRecord> = .failed("not scripted")
        var rating: FetchResult<RatingRecord> = .failed("not scripted")
    }

    let script: Mutex<Script>
    let calls = Mutex<[String]>([])

    init(_ script: Script = Script()) {
        self.script = Mutex(script)
    }

    /// The calls so far, in order.
    var recorded: [String] { calls.withLock { $0 } }

    func set(_ change: (inout Script) -> Void) {
        script.withLock { change(&$0) }
    }

    func version(package packageName: String, platform: Platform, versionCode: Int64, deviceNow: Int64) async throws
        -> FetchResult<VersionRecord>
    {
        calls.withLock { $0.append("version \(packageName) \(platform) \(versionCode)") }
        return script.withLock { $0.version }
    }

    func rating(package packageName: String, platform: Platform) async throws -> FetchResult<RatingRecord> {
        calls.withLock { $0.append("rating \(packageName) \(platform)") }
        return script.withLock { $0.rating }
    }

    func isOnline() async -> Bool {
        calls.withLock { $0.append("isOnline") }
        return script.withLock { $0.online }
    }
}

/// A messaging provider that fails on a chosen topic.
struct FailingMessaging: MessagingProvider {
    let failingTopic: String
    let inner: any MessagingProvider

    func subscribe(to topic: String, package packageName: String) async throws {
        if topic == failingTopic { throw SCLMError(.network, "push service unavailable") }
        try await inner.subscribe(to: topic, package: packageName)
    }

    func unsubscribe(from topic: String, package packageName: String) async throws {
        if topic == failingTopic { throw SCLMError(.network, "push service unavailable") }
        try await inner.unsubscribe(from: topic, package: packageName)
    }

    func token() async throws -> String { try await inner.token() }
}

/// A home with a real database file and a service over it.
struct Harness {
    static let now: Int64 = 1_750_000_000_000
    let folder = TemporaryDirectory()
    let store: ContentStore
    let backend: FakeBackend

    init(_ script: FakeBackend.Script = .init()) throws {
        store = try ContentStore(path: folder.appending("sclm.db"))
        backend = FakeBackend(script)
    }

    func service(
        at now: Int64 = Harness.now, messaging: (any MessagingProvider)? = nil, unplatformedStateOwner: Platform? = nil
    ) -> OSAMService {
        let clock = FixedClock(epochMilliseconds: now)
        return OSAMService(
            store: store, backend: backend, analytics: StoreAnalyticsProvider(store: store),
            messaging: messaging ?? StoreMessagingProvider(store: store, clock: clock), clock: clock,
            logger: Logger(minimumLevel: .error), unplatformedStateOwner: unplatformedStateOwner)
    }

    func customEvents() async throws -> [(key: String, value: String, sessionId: String)] {
        try await store.read { db in
            try db.fetchAll("SELECT key, value, sessionId FROM custom_events ORDER BY created, rowid").map {
                (key: $0.string("key") ?? "", value: $0.string("value") ?? "", sessionId: $0.string("sessionId") ?? "")
            }
        }
    }

    func preferences(_ scope: String) async throws -> [String: String] {
        try await store.read { db in try db.preferences(scope: scope) }
    }

    static let app = InstalledApp(
        packageName: "cat.bcn.demo", versionCode: 100, versionName: "1.0.0", osVersion: "12", model: "kiosk")

    static func record(_ mode: ComparisonMode) -> VersionRecord {
        VersionRecord(
            versionCode: 101, versionName: "1.0.1", startDate: now - 1000, endDate: now + 86_400_000, serverDate: now,
            mode: mode,
            title: LocalizedText("Update"), message: LocalizedText("A new version"), url: "https://apps.example/demo")
    }
}
