import Foundation
import SCLMBridge
import SCLMCore
import SCLMStore
import Synchronization

extension PresentationHost {
    // MARK: - Sessions

    /// `getSessions`: the sessions of the client's presentations on this device (only the user's under a
    /// password login).
    func sessionList() async throws -> JSONValue {
        let scope = try scope()
        let sessions = try await readRecorded { db in try db.sessions(in: scope) }
        return .array(
            sessions.map { session in
                [
                    "sessionId": .string(session.sessionId), "presentationId": .string(String(session.presentationId)),
                    "created": .string(session.created),
                ]
            })
    }

    /// `getCurrentSession`: the open session with its slide views in the order shown.
    func currentSession() async throws -> JSONValue {
        try await sessionDetails(id: try current().session.sessionId)
    }

    /// `getSessionById`: a session of the client's presentations (the user's under a password login) with
    /// its slide views.
    ///
    /// - Throws: ``BridgeError`` (404) for an unknown id or a session content may not read.
    func sessionDetails(id: String) async throws -> JSONValue {
        let scope = try scope()
        let found = try await readRecorded { db -> (SessionRecord, [SlideActionRecord])? in
            guard let session = try db.session(id: id, in: scope) else { return nil }
            return (session, try db.slideViews(sessionId: id))
        }
        guard let (session, views) = found else { throw BridgeError(.notFound, "no session with id \(id)") }
        return [
            "sessionId": .string(session.sessionId), "presentationId": .string(String(session.presentationId)),
            "userId": .string(session.userId ?? ""), "state": .int(session.state.rawValue),
            "complete": .bool(session.complete), "created": .string(session.created),
            "timeZone": .int(session.timeZone),
            "latitude": session.latitude.map { .double($0) } ?? .null,
            "longitude": session.longitude.map { .double($0) } ?? .null, "address": .string(session.address ?? ""),
            "duration": .int(session.duration), "slidesCount": .int(session.slidesCount),
            "isRestored": .bool(session.isRestored),
            "slides": .array(
                views.map { view in
                    [
                        "id": .string(view.id), "slideId": view.slideId.map { .int($0) } ?? .null,
                        "name": .string(view.slideName), "duration": .int(view.duration),
                        "created": .string(view.created),
                    ]
                }),
        ]
    }

    /// `setSessionComplete`: content declares the presentation fully shown.
    func completeSession() async throws {
        let sessionId = try current().session.sessionId
        let stamp = Timestamp.string(from: clock.now)
        recorder.record { db in try db.markSessionComplete(id: sessionId, now: stamp) }
    }

    // MARK: - Custom events

    /// `setCustomEvent`: sets `key` to `value` in the open session and presentation.
    func setCustomEvent(key: String, value: String) async throws {
        let open = try current()
        let coordinates = environment.coordinates
        let event = CustomEventRecord(
            id: UUID().uuidString, sessionId: open.session.sessionId, presentationId: open.presentation.presentationId,
            userId: environment.userId, key: key, value: value, created: Timestamp.string(from: clock.now),
            timeZone: Self.timeZoneHours, latitude: coordinates.latitude, longitude: coordinates.longitude)
        recorder.record { db in try db.setCustomEvent(event) }
    }

    /// `getCustomEventByKey`.
    ///
    /// - Throws: ``BridgeError`` (404) when the key is not set in the open session.
    func customEvent(key: String) async throws -> String {
        let open = try current()
        let value = try await readRecorded { db in
            try db.customEventValue(
                sessionId: open.session.sessionId, presentationId: open.presentation.presentationId, key: key)
        }
        guard let value else { throw BridgeError(.notFound, "no custom event '\(key)' in the current session") }
        return value
    }

    /// `deleteCustomEventByKey` (deleting a key that is not set is not an error).
    func deleteCustomEvent(key: String) async throws {
        let open = try current()
        recorder.record { db in
            _ = try db.deleteCustomEvent(
                sessionId: open.session.sessionId, presentationId: open.presentation.presentationId, key: key)
        }
    }

    /// `getCustomEventsObject`: the keys and values of a session (default: the open one) and presentation
    /// (default: the open one), both of the client (and the session the user's under a password login).
    ///
    /// - Throws: ``BridgeError`` (404) for a session or presentation content may not read.
    func customEvents(sessionId: String?, presentationId: Int64?) async throws -> JSONValue {
        let open = state.withLock { $0.open }
        guard let session = sessionId ?? open?.session.sessionId,
            let presentation = presentationId ?? open?.presentation.presentationId
        else { throw BridgeError(.notFound, "no presentation is open; pass sessionId and contentId") }
        let scope = try scope()
        let values = try await readRecorded { db in
            try db.customEvents(sessionId: session, presentationId: presentation, in: scope)
        }
        guard let values else {
            throw BridgeError(
                .notFound, "no session \(session) of presentation \(presentation) for this presentation's client")
        }
        return .object(values.mapValues { .string($0) })
    }
}
