import Foundation
import SCLMBridge
import SCLMCore
import SCLMStore
import Synchronization

extension PresentationHost {
    /// The fields of a 1.x session `sessionupdate` may change, and what they change.
    static let version1Updatable = ["confirmed"]

    /// The sessions content may read, oldest first.
    func visibleSessions() async throws -> [SessionRecord] {
        let scope = try scope()
        return try await store.read { db in try db.sessions(in: scope) }
    }

    /// The session `id`, if content may read it.
    ///
    /// - Throws: ``BridgeError`` (404) for an unknown id or a session content may not read.
    func visibleSession(id: String) async throws -> SessionRecord {
        let scope = try scope()
        guard let session = try await store.read({ db in try db.session(id: id, in: scope) }) else {
            throw BridgeError(.notFound, "no session with id \(id)")
        }
        return session
    }

    /// `sessionupdate`: applies the fields of a v1 session object that differ from the stored session.
    /// Only `confirmed` can change (1: content declares the presentation fully shown, as
    /// `setSessionComplete`); the others are recorded by the host, and a changed one is refused.
    ///
    /// - Throws: ``BridgeError`` (400 without an `id` or for a field that cannot change, 404 for a session
    ///   content may not read).
    func updateSession(_ update: JSONValue) async throws -> SessionRecord {
        guard let fields = update.objectValue, let id = fields["id"]?.stringValue, !id.isEmpty else {
            throw BridgeError(
                .badRequest, "sessionupdate needs the session object with its id: send {\"id\":\"…\",\"confirmed\":1}")
        }
        let session = try await visibleSession(id: id)
        let stored = version1(session).objectValue ?? [:]
        let changed = fields.keys.filter { key in stored[key].map { !Self.sameValue($0, fields[key]) } ?? false }
        let refused = changed.filter { !Self.version1Updatable.contains($0) }.sorted()
        guard refused.isEmpty else {
            throw BridgeError(
                .badRequest,
                "sessionupdate cannot change \(refused.joined(separator: ", ")): the host records it; only confirmed can change"
            )
        }
        if changed.contains("confirmed") {
            guard fields["confirmed"]?.intValue == 1 else {
                throw BridgeError(.badRequest, "sessionupdate: confirmed can only be set to 1 (fully shown)")
            }
            let stamp = Timestamp.string(from: clock.now)
            try await store.write { db in try db.markSessionComplete(id: id, now: stamp) }
        }
        return try await visibleSession(id: id)
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
            "address": .string(session.address ?? ""), "userName": .string(userName ?? ""), "visit": 0,
            "checkIn": 0, "confirmed": .int(session.complete ? 1 : 0), "finished": .int(finished ? 1 : 0),
            "offset": .int(session.timeZone), "slides": .int(session.slidesCount), "duration": .int(session.duration),
            "presentationId": .int(session.presentationId),
        ]
    }

    /// Whether a value content sent equals the stored one (numbers as numbers, whatever their JSON type).
    private static func sameValue(_ stored: JSONValue, _ sent: JSONValue?) -> Bool {
        guard let sent else { return true }
        if let left = stored.intValue, let right = sent.intValue { return left == right }
        if let left = stored.intValue, let right = sent.stringValue.flatMap({ Int64($0) }) { return left == right }
        return stored == sent
    }
}
