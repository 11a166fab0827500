import Foundation
import SCLMCore
import SCLMPolicy
import SCLMStore

/// Where OSAM's analytics events go (OSAM's `AnalyticsWrapper`).
///
/// Implementations must not block for long and should keep events when they cannot deliver them; a
/// failure is reported to the caller, which logs it and carries on (analytics never changes a decision).
package protocol AnalyticsProvider: Sendable {
    /// Records `events` logged for `packageName` at `date`.
    ///
    /// - Throws: any error; callers log it as a warning.
    func log(_ events: [OSAMEvent], package packageName: String, at date: Date) async throws
}

/// The default analytics provider: OSAM events become custom events in the store, so the analytics
/// outbox publishes them with the rest (`story.content.customevent`).
///
/// `custom_events` rows need a session (foreign key). OSAM events belong to no presentation, so they hang
/// off one dedicated session row per home: presentation 0, state 2 (test: never published itself) and
/// already marked synchronized; its id is kept in the `osam` preferences scope. Each event row has the
/// OSAM event name as `key` and its parameters plus the package as a JSON object `value`.
package struct StoreAnalyticsProvider: AnalyticsProvider {
    /// The preferences scope and key holding the id of the dedicated session row.
    package static let sessionPreference = (scope: "osam", key: "ANALYTICS_SESSION_ID")

    private let store: ContentStore

    /// Creates a provider writing to `store`.
    package init(store: ContentStore) {
        self.store = store
    }

    package func log(_ events: [OSAMEvent], package packageName: String, at date: Date) async throws {
        guard !events.isEmpty else { return }
        try await store.write { db in
            let sessionId = try StoreAnalyticsProvider.sessionId(in: db, at: date)
            for event in events {
                try StoreAnalyticsProvider.insert(event, package: packageName, sessionId: sessionId, at: date, into: db)
            }
        }
    }

    /// The id of the dedicated OSAM session, creating the row on first use.
    static func sessionId(in db: Database, at date: Date) throws -> String {
        let (scope, key) = sessionPreference
        if let existing = try db.preference(scope: scope, key: key), try db.hasSession(id: existing) {
            return existing
        }
        var session = SessionRecord(
            sessionId: UUID().uuidString.lowercased(), presentationId: 0, userId: nil,
            created: Timestamp.string(from: date), timeZone: timeZoneHours)
        session.state = .test
        try db.insertSession(session, synchronized: true)
        try db.setPreference(scope: scope, key: key, value: session.sessionId, now: date)
        return session.sessionId
    }

    private static func insert(
        _ event: OSAMEvent, package packageName: String, sessionId: String, at date: Date, into db: Database
    ) throws {
        var parameters = event.parameters.mapValues(JSONValue.string)
        parameters["package"] = .string(packageName)
        try db.insertCustomEvent(
            CustomEventRecord(
                id: UUID().uuidString.lowercased(), sessionId: sessionId, presentationId: 0, userId: nil,
                key: event.name, value: JSONValue.object(parameters).jsonString, created: Timestamp.string(from: date),
                timeZone: timeZoneHours))
    }

    /// The local UTC offset in whole hours, as StoryContent stores `timeZone`.
    private static var timeZoneHours: Int64 { Int64(TimeZone.current.secondsFromGMT() / 3600) }
}
