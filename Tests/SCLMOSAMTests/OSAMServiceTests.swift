import Foundation
import SCLMCore
import SCLMOSAM
import SCLMPolicy
import SCLMStore
import SCLMTestSupport
import Testing

/// The service around the policy: fetch, persistence per package, analytics in the store.
@Suite(.tags(.medium)) struct OSAMServiceTests {
    @Test func aShownAlertIsPersistedAndAnsweredByALaterService() async throws {
        let harness = try Harness(.init(version: .fetched(Harness.record(.lazy))))
        let decision = try await harness.service().versionControl(
            app: Harness.app, platform: .android, language: .en, connectivity: .probe)
        #expect(decision.result == .show)
        #expect(harness.backend.recorded == ["isOnline", "version cat.bcn.demo ANDROID 100"])

        let reopened = try ContentStore(path: harness.store.path)
        let state = try await reopened.read { db in try db.osamState(package: "cat.bcn.demo", platform: .android) }
        #expect(state.pendingAlert?.mode == .lazy)
        #expect(
            try await harness.preferences("osam:cat.bcn.demo:ANDROID")["CHECKBOX_DONT_SHOW_AGAIN_ACTIVE"] == "true")

        let answer = try await harness.service(at: Harness.now + 10).answer(
            package: "cat.bcn.demo", platform: .android, choice: .ok, dontShowAgain: true)
        #expect(answer.response == .accepted)
        #expect(answer.openURL == "https://apps.example/demo")
        let after = try await harness.preferences("osam:cat.bcn.demo:ANDROID")
        #expect(after["CHECKBOX_DONT_SHOW_AGAIN_ACTIVE"] == "false")
        #expect(after["LAST_TIME_USER_CLICKED_ON_ACCEPT_BUTTON"] == String(Harness.now + 10))
        #expect(after["SCLM_PENDING_ALERT"] == nil)
    }

    @Test func anUnreachableBackendMeansOfflineAndTheCacheApplies() async throws {
        let harness = try Harness(.init(version: .fetched(Harness.record(.force))))
        _ = try await harness.service().versionControl(
            app: Harness.app, platform: .ios, language: .ca, connectivity: .probe)
        harness.backend.set { $0.online = false }
        let offline = try await harness.service(at: Harness.now + 5).versionControl(
            app: Harness.app, platform: .ios, language: .ca, connectivity: .probe)
        #expect(offline.result == .show)
        #expect(offline.reason == .force)
        #expect(harness.backend.recorded.filter { $0.hasPrefix("version") }.count == 1, "no fetch while offline")
    }

    @Test func forcedOfflineNeverTouchesTheBackend() async throws {
        let harness = try Harness()
        let decision = try await harness.service().versionControl(
            app: Harness.app, platform: .ios, language: .ca, connectivity: .offline)
        #expect(decision.reason == .offlineNeverFetched)
        #expect(harness.backend.recorded.isEmpty)
    }

    @Test func aFailedFetchIsAnErrorThatChangesNothing() async throws {
        let harness = try Harness(.init(version: .failed("HTTP 503 from osam.example")))
        let decision = try await harness.service().versionControl(
            app: Harness.app, platform: .ios, language: .ca, connectivity: .probe)
        #expect(decision.result == .error)
        #expect(decision.failure == "HTTP 503 from osam.example")
        #expect(try await harness.preferences("osam:cat.bcn.demo").isEmpty)
    }

    @Test func anAlertAwaitingItsAnswerIsAnErrorWithoutAFetch() async throws {
        let harness = try Harness(.init(version: .fetched(Harness.record(.force))))
        let decision = try await harness.service().versionControl(
            app: Harness.app, platform: .ios, language: .ca, connectivity: .probe, isAlertShowing: true)
        #expect(decision.result == .error && decision.reason == .alertPending)
        #expect(harness.backend.recorded.isEmpty)
    }

    @Test func answeringWithoutAnAlertIsNotFound() async throws {
        let harness = try Harness()
        let error = try await #require(throws: SCLMError.self) {
            try await harness.service().answer(
                package: "cat.bcn.demo", platform: .ios, choice: .ok, dontShowAgain: false)
        }
        #expect(error.category == .notFound)
        #expect(error.message.contains("run a version-control check first"))
    }

    @Test func stateIsScopedPerPackage() async throws {
        let harness = try Harness(.init(version: .fetched(Harness.record(.lazy))))
        _ = try await harness.service().versionControl(
            app: Harness.app, platform: .ios, language: .ca, connectivity: .probe)
        var other = Harness.app
        other.packageName = "cat.bcn.other"
        let error = try await #require(throws: SCLMError.self) {
            try await harness.service().answer(
                package: other.packageName, platform: .ios, choice: .ok, dontShowAgain: false)
        }
        #expect(error.category == .notFound)
        #expect(try await harness.preferences("osam:cat.bcn.other:IOS").isEmpty)
    }

    /// Android then iOS: each platform keeps its own alert, "don't show again" and throttle.
    @Test func eachPlatformKeepsItsOwnState() async throws {
        let harness = try Harness(.init(version: .fetched(Harness.record(.lazy))))
        _ = try await harness.service().versionControl(
            app: Harness.app, platform: .ios, language: .en, connectivity: .probe)
        _ = try await harness.service().answer(
            package: "cat.bcn.demo", platform: .ios, choice: .ok, dontShowAgain: true)
        harness.backend.set { $0.version = .fetched(Harness.record(.force)) }
        let android = try await harness.service().versionControl(
            app: Harness.app, platform: .android, language: .en, connectivity: .probe)
        #expect(android.reason == .force)
        let ios = try await harness.service().versionControl(
            app: Harness.app, platform: .ios, language: .en, connectivity: .offline)
        #expect(ios.result != .show, "iOS keeps its own cache and its don't-show-again: \(ios)")
        #expect(try await harness.preferences("osam:cat.bcn.demo:IOS")["CHECKBOX_DONT_SHOW_AGAIN_ACTIVE"] == "false")
        #expect(try await harness.preferences("osam:cat.bcn.demo:ANDROID")["SCLM_PENDING_ALERT"] != nil)
    }

    /// State written before states were per platform becomes the configured platform's, once.
    @Test func unplatformedStateBecomesTheConfiguredPlatforms() async throws {
        let harness = try Harness(.init(rating: .fetched(RatingRecord(minutes: 1, numAperture: 100))))
        try await harness.store.write { db in
            try db.setPreference(scope: "osam:cat.bcn.demo", key: "NUM_APERTURES", value: "2")
            try db.setPreference(scope: "osam:cat.bcn.demo", key: "SELECTED_LANGUAGE", value: "ca")
        }
        let service = harness.service(unplatformedStateOwner: .ios)
        _ = try await service.rating(package: "cat.bcn.demo", platform: .android, connectivity: .probe)
        #expect(try await harness.preferences("osam:cat.bcn.demo:IOS")["NUM_APERTURES"] == "2")
        #expect(try await harness.preferences("osam:cat.bcn.demo:ANDROID")["NUM_APERTURES"] == "1")
        #expect(try await harness.preferences("osam:cat.bcn.demo") == ["SELECTED_LANGUAGE": "ca"])
        _ = try await service.rating(package: "cat.bcn.demo", platform: .ios, connectivity: .probe)
        #expect(try await harness.preferences("osam:cat.bcn.demo:IOS")["NUM_APERTURES"] == "3")
    }

    @Test func ratingCountsOpeningsAcrossServicesAndRequestsThePrompt() async throws {
        let harness = try Harness(.init(rating: .fetched(RatingRecord(minutes: 1, numAperture: 3))))
        var responses: [RatingResponse] = []
        for call in 0..<4 {
            let service = harness.service(at: Harness.now + Int64(call) * 60_000)
            responses.append(
                try await service.rating(package: "cat.bcn.demo", platform: .android, connectivity: .probe).response)
        }
        #expect(responses == [.dismissed, .dismissed, .accepted, .dismissed])
        let events = try await harness.customEvents()
        #expect(events.map(\.key) == ["rating_popup_showed"])
    }

    @Test func aFailedRatingFetchStillCountsTheOpening() async throws {
        let harness = try Harness(.init(rating: .failed("timeout")))
        let decision = try await harness.service().rating(
            package: "cat.bcn.demo", platform: .android, connectivity: .probe)
        #expect(decision.response == .error)
        #expect(try await harness.preferences("osam:cat.bcn.demo:ANDROID")["NUM_APERTURES"] == "1")
    }

    @Test func analyticsEventsBecomeCustomEventsOfOneUnpublishedSession() async throws {
        let harness = try Harness(.init(version: .fetched(Harness.record(.lazy))))
        _ = try await harness.service().versionControl(
            app: Harness.app, platform: .ios, language: .ca, connectivity: .probe)
        _ = try await harness.service().answer(
            package: "cat.bcn.demo", platform: .ios, choice: .cancel, dontShowAgain: false)
        let events = try await harness.customEvents()
        #expect(events.map(\.key) == ["version_control_popup_showed", "version_control_popup_cancelled"])
        let value = try JSONValue.parse(Data(events[0].value.utf8))
        #expect(value == ["item_id": "osam_commons", "mode": "LAZY", "package": "cat.bcn.demo"])
        #expect(Set(events.map(\.sessionId)).count == 1)
        let session = try await harness.store.read { db in
            try db.fetchOne(
                "SELECT state, synchronized, presentationId FROM sessions WHERE sessionId = ?", [events[0].sessionId])
        }
        #expect(session?.int("state") == 2, "a test session: never published itself")
        #expect(session?.int("synchronized") == 1)
        #expect(session?.int("presentationId") == 0)
        let pending = try await harness.store.read { db in
            try db.fetchCount("SELECT count(*) FROM custom_events WHERE synchronized = 0")
        }
        #expect(pending == 2, "the events themselves wait in the outbox")
    }

    @Test func aDeletedSessionRowIsRecreated() async throws {
        let harness = try Harness(.init(version: .fetched(Harness.record(.force))))
        _ = try await harness.service().versionControl(
            app: Harness.app, platform: .ios, language: .ca, connectivity: .probe)
        try await harness.store.write { db in try db.execute("DELETE FROM sessions") }
        _ = try await harness.service().versionControl(
            app: Harness.app, platform: .ios, language: .ca, connectivity: .probe)
        #expect(
            try await harness.customEvents().count == 1, "the cascade removed the first; the second has a new session")
    }
}
