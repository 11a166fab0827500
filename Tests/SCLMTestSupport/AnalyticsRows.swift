import Foundation
import SCLMStore

/// Analytics rows written straight into a database, the way `sclm bridge` writes them (the tables are
/// the contract between the bridge and the outbox).
extension Database {
    /// Inserts a session (`state`: 0 open, 1 complete, 2 test, 3/4 left).
    ///
    /// - Throws: ``StoreError``.
    package func insertAnalyticsSession(
        _ sessionId: String, state: Int, presentationId: Int64 = 101, userId: String? = "user-1",
        created: String = "2026-03-01T09:15:02.123Z", timeZone: Int64 = 3, complete: Bool = false,
        duration: Int64 = 0, slidesCount: Int64 = 0, latitude: Double? = nil, longitude: Double? = nil,
        address: String? = nil
    ) throws {
        try execute(
            """
            INSERT INTO sessions(sessionId, presentationId, userId, state, complete, duration, completeSessionDuration,
                slidesCount, created, updated, timeZone, latitude, longitude, address)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
            """,
            [
                sessionId, presentationId, userId, state, complete, duration, complete ? duration : 0, slidesCount,
                created, created, timeZone, latitude, longitude, address,
            ])
    }

    /// Inserts a slide view of `sessionId` (same presentation and user as the session).
    ///
    /// - Throws: ``StoreError``.
    package func insertAnalyticsSlideView(
        _ id: String, sessionId: String, slideId: Int64? = 10100, slideName: String = "index.html",
        duration: Int64 = 12, created: String = "2026-03-01T09:15:03.000Z", timeZone: Int64 = 3
    ) throws {
        try execute(
            """
            INSERT INTO session_actions(id, sessionId, presentationId, userId, slideId, slideName, navigation, duration,
                created, timeZone)
            SELECT ?, sessionId, presentationId, userId, ?, ?, 'in', ?, ?, ? FROM sessions WHERE sessionId = ?
            """, [id, slideId, slideName, duration, created, timeZone, sessionId])
    }

    /// Inserts a custom event of `sessionId` (same presentation and user as the session).
    ///
    /// - Throws: ``StoreError``.
    package func insertAnalyticsCustomEvent(
        _ id: String, sessionId: String, key: String = "score", value: String = "7",
        created: String = "2026-03-01T09:15:04.000Z", timeZone: Int64 = 3, latitude: Double? = nil,
        longitude: Double? = nil
    ) throws {
        try execute(
            """
            INSERT INTO custom_events(id, sessionId, presentationId, userId, key, value, created, timeZone, latitude,
                longitude)
            SELECT ?, sessionId, presentationId, userId, ?, ?, ?, ?, ?, ? FROM sessions WHERE sessionId = ?
            """, [id, key, value, created, timeZone, latitude, longitude, sessionId])
    }
}
