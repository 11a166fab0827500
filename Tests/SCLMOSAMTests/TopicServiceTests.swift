import Foundation
import SCLMCore
import SCLMOSAM
import SCLMPolicy
import SCLMStore
import SCLMTestSupport
import Testing

/// Topic and language events through the default messaging provider and the store.
@Suite(.tags(.medium)) struct TopicServiceTests {
    static let topic = "demo_1.0.0_100_CA"

    @Test func firstTimeSubscribesAndRecordsTheSubscriptions() async throws {
        let harness = try Harness()
        let outcome = try await harness.service().firstTimeOrUpdate(
            app: Harness.app, language: .ca, deviceLanguage: "es")
        #expect(
            outcome == TopicOutcome(response: .success, subscribed: [Self.topic, "CA"], unsubscribed: [], failure: nil))
        #expect(try await harness.preferences("osam-topics:cat.bcn.demo").keys.sorted() == ["CA", Self.topic])
        #expect(try await harness.customEvents().map(\.key) == ["language_change"])
        let again = try await harness.service().firstTimeOrUpdate(app: Harness.app, language: .ca, deviceLanguage: "es")
        #expect(again.response == .unchanged)
    }

    @Test func changeLanguageMovesTheRecordedSubscriptions() async throws {
        let harness = try Harness()
        _ = try await harness.service().firstTimeOrUpdate(app: Harness.app, language: .ca, deviceLanguage: "ca")
        let outcome = try await harness.service().changeLanguage(app: Harness.app, language: .en, deviceLanguage: "ca")
        #expect(outcome.subscribed == ["demo_1.0.0_100_EN", "EN"])
        #expect(outcome.unsubscribed == [Self.topic, "CA"])
        #expect(try await harness.preferences("osam-topics:cat.bcn.demo").keys.sorted() == ["EN", "demo_1.0.0_100_EN"])
        let state = try await harness.preferences("osam:cat.bcn.demo")
        #expect(
            state["SELECTED_LANGUAGE"] == "EN" && state["PREVIOUS_LANGUAGE"] == "CA"
                && state["DISPLAYED_LANGUAGE"] == "CA")
    }

    @Test func aMessagingFailureIsAnErrorAndIsRetriedNextTime() async throws {
        let harness = try Harness()
        let inner = StoreMessagingProvider(store: harness.store)
        let failing = FailingMessaging(failingTopic: "CA", inner: inner)
        let outcome = try await harness.service(messaging: failing).firstTimeOrUpdate(
            app: Harness.app, language: .ca, deviceLanguage: "ca")
        #expect(outcome.response == .error)
        #expect(outcome.subscribed == [Self.topic])
        #expect(outcome.failure == "push service unavailable")
        #expect(
            try await harness.preferences("osam:cat.bcn.demo")["VERSION_CONTROL_VERSION_NAME_PREVIOUS"] == nil,
            "nothing persisted")
        #expect(try await harness.customEvents().isEmpty)
        let retry = try await harness.service().firstTimeOrUpdate(app: Harness.app, language: .ca, deviceLanguage: "ca")
        #expect(retry.response == .success)
        #expect(retry.subscribed == [Self.topic, "CA"])
    }

    @Test func customTopicsAreRecordedAndInvalidNamesRefused() async throws {
        let harness = try Harness()
        let service = harness.service()
        #expect(try await service.customTopic("news", subscribe: true, package: "cat.bcn.demo").subscribed == ["news"])
        #expect(try await harness.preferences("osam-topics:cat.bcn.demo").keys.sorted() == ["news"])
        #expect(
            try await service.customTopic("news", subscribe: false, package: "cat.bcn.demo").unsubscribed == ["news"])
        #expect(try await harness.preferences("osam-topics:cat.bcn.demo").isEmpty)
        let error = try await #require(throws: SCLMError.self) {
            try await service.customTopic("bad topic", subscribe: true, package: "cat.bcn.demo")
        }
        #expect(error.category == .usage)
    }

    @Test func theTokenIsAStableInstallationId() async throws {
        let harness = try Harness()
        let first = try await harness.service().token()
        let second = try await StoreMessagingProvider(store: try ContentStore(path: harness.store.path)).token()
        #expect(first == second)
        #expect(UUID(uuidString: first) != nil)
    }

    @Test func aNotifierSeesEachChangeBeforeItIsRecorded() async throws {
        let harness = try Harness()
        let seen = Recorder()
        let provider = StoreMessagingProvider(store: harness.store, notifier: { change in await seen.append(change) })
        try await provider.subscribe(to: "news", package: "p")
        let token = try await provider.token()
        #expect(
            await seen.changes == [SubscriptionChange(action: "subscribe", package: "p", topic: "news", token: token)])

        let refusing = StoreMessagingProvider(
            store: harness.store, notifier: { _ in throw SCLMError(.network, "webhook down") })
        await #expect(throws: SCLMError.self) { try await refusing.subscribe(to: "sports", package: "p") }
        #expect(try await provider.subscriptions(package: "p") == ["news"], "a refused change is not recorded")
    }

    actor Recorder {
        var changes: [SubscriptionChange] = []
        func append(_ change: SubscriptionChange) { changes.append(change) }
    }
}
