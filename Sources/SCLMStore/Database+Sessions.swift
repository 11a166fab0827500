import Foundation
import SCLMCore

/// Sessions, slide views and custom events (the bridge's sessions, the analytics outbox). Each change is written
/// when it happens, inside the caller's transaction, so nothing already answered to content is lost.
extension Database {
    // MARK: - Sessions

    /// The newest unfinished session (state 0, 3 or 4) of `presentationId` for `userId`, if any.
    ///
    /// - Throws: ``StoreError``.
    package func unfinishedSession(presentationId: Int64, userId: String?) throws -> SessionRecord? {
        try fetchOne(
            """
            SELECT * FROM sessions WHERE presentationId = ? AND userId IS ? AND state IN \(SessionRecord.State.unfinishedSQL)
            ORDER BY created DESC, rowid DESC LIMIT 1
            """, [presentationId, userId]
        ).map(SessionRecord.init(row:))
    }

    /// Stores a new session.
    ///
    /// - Parameters:
    ///   - session: the session.
    ///   - synchronized: stores the row as already published, for a session the host keeps only to hold
    ///     events of its own (the outbox then publishes its events but never the session).
    /// - Throws: ``StoreError``.
    package func insertSession(_ session: SessionRecord, synchronized: Bool = false) throws {
        try execute(
            """
            INSERT INTO sessions(sessionId, presentationId, userId, state, complete, duration, completeSessionDuration,
                slidesCount, lastOpenedSlideId, lastOpenedSlideName, created, updated, timeZone, latitude, longitude,
                address, isRestored, visit, checkIn, synchronized)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
            """,
            [
                session.sessionId, session.presentationId, session.userId, session.state.rawValue, session.complete,
                session.duration, session.completeSessionDuration, session.slidesCount, session.lastOpenedSlideId,
                session.lastOpenedSlideName, session.created, session.updated, session.timeZone, session.latitude,
                session.longitude, session.address, session.isRestored, session.visit, session.checkIn, synchronized,
            ])
    }

    /// Whether session `sessionId` is stored.
    ///
    /// - Throws: ``StoreError``.
    package func hasSession(id sessionId: String) throws -> Bool {
        try fetchCount("SELECT count(*) FROM sessions WHERE sessionId = ?", [sessionId]) == 1
    }

    /// How many sessions are stored, and how many of them are unfinished.
    ///
    /// - Throws: ``StoreError``.
    package func sessionCounts() throws -> SessionCounts {
        SessionCounts(
            sessions: try fetchCount("SELECT count(*) FROM sessions"),
            unfinished: try fetchCount(
                "SELECT count(*) FROM sessions WHERE state IN \(SessionRecord.State.unfinishedSQL)"))
    }

    /// Reopens an unfinished session: state 0, marked restored.
    ///
    /// - Throws: ``StoreError``.
    package func restoreSession(id sessionId: String, now: String) throws {
        try execute(
            "UPDATE sessions SET state = 0, isRestored = 1, \(Self.laterUpdated) WHERE sessionId = ?", [now, sessionId])
    }

    /// Records a finished slide view and adds it to its session's totals and last slide.
    ///
    /// - Throws: ``StoreError``.
    package func recordSlideView(_ action: SlideActionRecord, now: String) throws {
        try execute(
            """
            INSERT INTO session_actions(id, sessionId, presentationId, userId, slideId, slideName, navigation, duration,
                created, timeZone, latitude, longitude)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
            """,
            [
                action.id, action.sessionId, action.presentationId, action.userId, action.slideId, action.slideName,
                action.navigation, action.duration, action.created, action.timeZone, action.latitude, action.longitude,
            ])
        try execute(
            """
            UPDATE sessions SET duration = duration + ?, slidesCount = slidesCount + 1, \(Self.laterUpdated)
            WHERE sessionId = ?
            """, [action.duration, now, action.sessionId])
    }

    /// Adds `seconds` to slide view `id` (the view a restarted player continues) and to its session's
    /// duration; the session's slide count stays.
    ///
    /// - Throws: ``StoreError``.
    package func extendSlideView(id: String, sessionId: String, by seconds: Int64, now: String) throws {
        try execute("UPDATE session_actions SET duration = duration + ? WHERE id = ?", [seconds, id])
        try execute(
            "UPDATE sessions SET duration = duration + ?, \(Self.laterUpdated) WHERE sessionId = ?",
            [seconds, now, sessionId])
    }

    /// The last slide view recorded in a session, if any.
    ///
    /// - Throws: ``StoreError``.
    package func lastSlideView(sessionId: String) throws -> SlideActionRecord? {
        try fetchOne("SELECT * FROM session_actions WHERE sessionId = ? ORDER BY rowid DESC LIMIT 1", [sessionId])
            .map(SlideActionRecord.init(row:))
    }

    /// Remembers the slide on screen, so a restored session resumes there.
    ///
    /// - Throws: ``StoreError``.
    package func setLastOpenedSlide(sessionId: String, slideId: Int64?, slideName: String, now: String) throws {
        try execute(
            "UPDATE sessions SET lastOpenedSlideId = ?, lastOpenedSlideName = ?, \(Self.laterUpdated) WHERE sessionId = ?",
            [slideId, slideName, now, sessionId])
    }

    /// Ends a session with `state` (complete, test, or left for another presentation).
    ///
    /// - Throws: ``StoreError``.
    package func closeSession(id sessionId: String, state: SessionRecord.State, now: String) throws {
        try execute(
            "UPDATE sessions SET state = ?, \(Self.laterUpdated) WHERE sessionId = ?", [state.rawValue, now, sessionId])
    }

    /// Marks that content declared the presentation fully shown (`setSessionComplete`).
    ///
    /// - Throws: ``StoreError``.
    package func markSessionComplete(id sessionId: String, now: String) throws {
        try execute(
            "UPDATE sessions SET complete = 1, completeSessionDuration = duration, \(Self.laterUpdated) WHERE sessionId = ?",
            [now, sessionId])
    }

    /// Stores content's changes to a session's own fields (storyclm.js 1.x `sessionupdate`). Confirming keeps
    /// the duration so far as `completeSessionDuration`, as ``markSessionComplete(id:now:)`` does, and
    /// withdrawing the confirmation clears both; confirming a confirmed session changes nothing. `updated`
    /// (the session's end) stays as the host recorded it.
    ///
    /// - Throws: ``StoreError``.
    package func updateSession(id sessionId: String, _ changes: SessionChanges) throws {
        try execute(
            "UPDATE sessions SET visit = coalesce(?, visit), checkIn = coalesce(?, checkIn) WHERE sessionId = ?",
            [changes.visit, changes.checkIn, sessionId])
        guard let confirmed = changes.confirmed else { return }
        try execute(
            """
            UPDATE sessions SET complete = ?1, completeSessionDuration = CASE WHEN ?1 THEN duration ELSE 0 END
            WHERE sessionId = ?2 AND complete != ?1
            """, [confirmed, sessionId])
    }

    /// Deletes a session with its slide views and custom events (storyclm.js 1.x `deletesessionbyid`).
    ///
    /// - Throws: ``StoreError``.
    package func deleteSession(id sessionId: String) throws {
        try execute("DELETE FROM session_actions WHERE sessionId = ?", [sessionId])
        try execute("DELETE FROM custom_events WHERE sessionId = ?", [sessionId])
        try execute("DELETE FROM sessions WHERE sessionId = ?", [sessionId])
    }

    /// The slide views of a session in the order they were shown.
    ///
    /// - Throws: ``StoreError``.
    package func slideViews(sessionId: String) throws -> [SlideActionRecord] {
        try fetchAll("SELECT * FROM session_actions WHERE sessionId = ? ORDER BY created, rowid", [sessionId])
            .map(SlideActionRecord.init(row:))
    }

    /// Sets a session's `updated` to the time bound to the next `?`, but never before its `created` or its
    /// `updated` so far: with the wall clock set back, a session's times still never go backwards.
    private static let laterUpdated = "updated = max(?, created, coalesce(updated, created))"

    // MARK: - Custom events

    /// Sets `key` of a session and presentation to `value`, replacing an earlier value (which is then
    /// published again).
    ///
    /// - Throws: ``StoreError``.
    package func setCustomEvent(_ event: CustomEventRecord) throws {
        try execute(
            """
            UPDATE custom_events SET value = ?, created = ?, userId = ?, timeZone = ?, latitude = ?, longitude = ?,
                synchronized = 0, publishAttempts = 0, publishError = NULL
            WHERE sessionId = ? AND presentationId = ? AND key = ?
            """,
            [
                event.value, event.created, event.userId, event.timeZone, event.latitude, event.longitude,
                event.sessionId, event.presentationId, event.key,
            ])
        guard changedRowCount == 0 else { return }
        try insertCustomEvent(event)
    }

    /// Stores `event` as a new row, beside any earlier event with the same key (OSAM logs each occurrence).
    ///
    /// - Throws: ``StoreError``.
    package func insertCustomEvent(_ event: CustomEventRecord) throws {
        try execute(
            """
            INSERT INTO custom_events(id, sessionId, presentationId, userId, key, value, created, timeZone, latitude,
                longitude)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
            """,
            [
                event.id, event.sessionId, event.presentationId, event.userId, event.key, event.value, event.created,
                event.timeZone, event.latitude, event.longitude,
            ])
    }

    /// The value of `key` in a session and presentation, if set.
    ///
    /// - Throws: ``StoreError``.
    package func customEventValue(sessionId: String, presentationId: Int64, key: String) throws -> String? {
        try fetchText(
            "SELECT value FROM custom_events WHERE sessionId = ? AND presentationId = ? AND key = ?",
            [sessionId, presentationId, key], column: "value", table: AnalyticsTable.customEvents.name)
    }

    /// Removes `key` from a session and presentation; returns whether it was set.
    ///
    /// - Throws: ``StoreError``.
    @discardableResult
    package func deleteCustomEvent(sessionId: String, presentationId: Int64, key: String) throws -> Bool {
        try execute(
            "DELETE FROM custom_events WHERE sessionId = ? AND presentationId = ? AND key = ?",
            [sessionId, presentationId, key])
        return changedRowCount > 0
    }
}
