import Foundation
import SCLMBridge
import SCLMCore
import SCLMStore
import Synchronization

extension PresentationHost {
    /// The sessions content may read, oldest first.
    func visibleSessions() async throws -> [SessionRecord] {
        let scope = try scope()
        return try await readRecorded { db in try db.sessions(in: scope) }
    }

    /// The session `id`, if content may read it.
    ///
    /// - Throws: ``BridgeError`` (404) for an unknown id or a session content may not read.
    func visibleSession(id: String) async throws -> SessionRecord {
        let scope = try scope()
        guard let session = try await readRecorded({ db in try db.session(id: id, in: scope) }) else {
            throw BridgeError(.notFound, "no session with id \(id)")
        }
        return session
    }

    /// `sessionupdate` (and `sessionconupdate`): stores the changes to a session's own fields
    /// (``Version1SessionUpdate``) and returns the session as stored.
    ///
    /// - Throws: ``BridgeError`` (400 without an `id`, for a host-recorded field that would change or a
    ///   mistyped value, 404 for a session content may not read).
    func updateSession(_ data: JSONValue) async throws -> SessionRecord {
        let update = try Version1SessionUpdate(data)
        let changes = try update.changes(to: version1(try await visibleSession(id: update.id)).objectValue ?? [:])
        try await store.write { db in try db.updateSession(id: update.id, changes) }
        return try await visibleSession(id: update.id)
    }

    /// `deletesessionbyid`: deletes a session content may read, with its slide views and custom events, and
    /// returns it as it was. The open session cannot be deleted.
    ///
    /// - Throws: ``BridgeError`` (404 for a session content may not read, 409 for the open session).
    func deleteSession(id: String) async throws -> SessionRecord {
        let session = try await visibleSession(id: id)
        if state.withLock({ $0.open?.session.sessionId }) == id {
            throw BridgeError(.conflict, "session \(id) is the open session; it cannot be deleted while it runs")
        }
        try await store.write { db in try db.deleteSession(id: id) }
        return session
    }

    /// A session in the shape of the storyclm.js v1 docs.
    func version1(_ session: SessionRecord) -> JSONValue {
        let finished = session.state == .complete || session.state == .test
        let userName = session.userId != nil && session.userId == environment.userId ? environment.userName : nil
        return [
            "id": .string(session.sessionId), "start": .string(session.created),
            "end": .string(session.updated ?? session.created),
            "latitude": .string(session.latitude.map { String(format: "%.8f", $0) } ?? ""),
            "longtitude": .string(session.longitude.map { String(format: "%.8f", $0) } ?? ""),
            "address": .string(session.address ?? ""), "userName": .string(userName ?? ""),
            "visit": .int(session.visit), "checkIn": .int(session.checkIn), "confirmed": .int(session.complete ? 1 : 0),
            "finished": .int(finished ? 1 : 0), "offset": .int(session.timeZone), "slides": .int(session.slidesCount),
            "duration": .int(session.duration), "presentationId": .int(session.presentationId),
        ]
    }
}
