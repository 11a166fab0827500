import Foundation
import SCLMCore
import SCLMStore
import SCLMTestSupport
import Testing

@testable import SCLMAnalytics

@Suite(.tags(.medium)) struct OutboxTests {
    let rows: AnalyticsStore

    /// One session in each state, each with a slide view and a custom event.
    init() throws {
        rows = try AnalyticsStore()
        try rows.write { db in
            for (state, name) in [(0, "open"), (1, "complete"), (2, "test"), (3, "left"), (4, "deeplink")] {
                try db.insertAnalyticsSession(name, state: state)
                try db.insertAnalyticsSlideView("\(name)-slide", sessionId: name)
                try db.insertAnalyticsCustomEvent("\(name)-event", sessionId: name)
            }
        }
    }

    @Test func onlyACompletedSessionAndItsRowsAreReleased() async throws {
        #expect(try await rows.ids(.session) == ["complete"])
        #expect(try await rows.ids(.slide) == ["complete-slide"])
        #expect(try await rows.ids(.customEvent) == ["complete-event"])
    }

    @Test func completingASessionReleasesItsRows() async throws {
        try rows.write { db in try db.execute("UPDATE sessions SET state = 1 WHERE sessionId = 'left'") }
        #expect(try await rows.ids(.session) == ["complete", "left"])
        #expect(try await rows.ids(.slide) == ["complete-slide", "left-slide"])
    }

    @Test func aSessionTheHostMarkedSynchronizedReleasesItsEvents() async throws {
        // OSAM keeps app-level events under a test-state session it marks synchronized itself.
        try rows.write { db in
            try db.insertAnalyticsSession("osam", state: 2, presentationId: 0)
            try db.execute("UPDATE sessions SET synchronized = 1 WHERE sessionId = 'osam'")
            try db.insertAnalyticsCustomEvent("osam-event", sessionId: "osam", key: "versionControl")
        }
        #expect(try await rows.ids(.customEvent) == ["complete-event", "osam-event"])
        #expect(try await rows.ids(.session) == ["complete"])
    }

    @Test func publishedRowsAreMarkedWithTimeAndAttempts() async throws {
        let entry = try #require(try await rows.entries(.slide).first)
        let now = Date(timeIntervalSince1970: 1_772_356_969)
        #expect(try await rows.outbox.markPublished(entry, attempts: 2, at: now))
        #expect(try rows.column("synchronized", of: .slide, id: entry.id) == .integer(1))
        #expect(try rows.column("publishAttempts", of: .slide, id: entry.id) == .integer(2))
        #expect(try rows.column("publishedAt", of: .slide, id: entry.id) == .text(Timestamp.string(from: now)))
        #expect(try await rows.ids(.slide).isEmpty)
    }

    @Test func aCustomEventOverwrittenWhilePublishingStaysPending() async throws {
        let entry = try #require(try await rows.entries(.customEvent).first)
        try rows.write { db in
            try db.execute(
                "UPDATE custom_events SET value = '9', created = '2026-03-01T10:00:00.000Z' WHERE id = ?", [entry.id])
        }
        #expect(try await !rows.outbox.markPublished(entry, attempts: 1, at: Date()))
        #expect(try rows.column("publishAttempts", of: .customEvent, id: entry.id) == .integer(1))
        let again = try #require(try await rows.entries(.customEvent).first)
        #expect(again.id == entry.id && again.row.string("value") == "9")
    }

    @Test func parkedRowsWaitForRetryParked() async throws {
        let entry = try #require(try await rows.entries(.session).first)
        try await rows.outbox.park(entry, attempts: 1, reason: "StoryIoT refused the request signature (HTTP 401)")
        #expect(try await rows.ids(.session).isEmpty)
        #expect(try await rows.ids(.session, includeParked: true) == ["complete"])
        let parked = try await rows.outbox.items(unpublishedOnly: true).filter { $0.state == .parked }
        #expect(parked.map(\.id) == ["complete"])
        #expect(parked.first?.error == "StoryIoT refused the request signature (HTTP 401)")
        #expect(parked.first?.attempts == 1)
        #expect(try await rows.outbox.markPublished(entry, attempts: 1, at: Date()))
        #expect(try rows.column("publishError", of: .session, id: "complete") == .null)
    }

    @Test func listingNamesEveryRowsState() async throws {
        let items = try await rows.outbox.items()
        let states = Dictionary(uniqueKeysWithValues: items.map { ($0.id, $0.state) })
        #expect(items.count == 15)
        for name in ["open", "left", "deeplink"] {
            #expect(states[name] == .waiting && states["\(name)-event"] == .waiting)
        }
        #expect(states["test"] == .test && states["test-slide"] == .test && states["test-event"] == .test)
        #expect(states["complete"] == .pending && states["complete-slide"] == .pending)
        let summary = try await rows.outbox.summary()
        #expect([summary[.pending], summary[.waiting], summary[.test], summary[.parked]] == [3, 9, 3, 0] as [Int])
        #expect(try await rows.outbox.items(unpublishedOnly: true).count == 12)
    }

    @Test func entriesArePagedInRowOrder() async throws {
        try rows.write { db in
            for index in 0..<5 { try db.insertAnalyticsSlideView("extra-\(index)", sessionId: "complete") }
        }
        let first = try await rows.outbox.entries(of: .slide, after: 0, limit: 4, includeParked: false)
        let rest = try await rows.outbox.entries(
            of: .slide, after: try #require(first.last).rowid, limit: 4, includeParked: false)
        #expect(first.map(\.id) == ["complete-slide", "extra-0", "extra-1", "extra-2"])
        #expect(rest.map(\.id) == ["extra-3", "extra-4"])
    }
}
