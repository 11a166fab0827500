import SCLMBridge
import SCLMCore
import SCLMStore

/// A storyclm.js 1.x `sessionupdate` (the v1 docs spell it `sessionconupdate`): a v1 session object with the
/// session's `id` and the fields to change, checked against the session as content reads it.
///
/// Content changes the session's own fields (``changeable``). The other fields of the v1 session are the
/// host's record (the id, presentation and user; the times, totals and state it derives; the place and
/// offset it recorded): sent with their stored value they are accepted, as 1.7.x sends the whole session
/// back, and a changed one is refused by name, so an update cannot move a session to another presentation
/// or user. A field the v1 session lacks is ignored.
struct Version1SessionUpdate {
    /// The fields content may change.
    static let changeable = ["visit", "checkIn", "confirmed"]

    /// The session to change.
    let id: String
    private let fields: [String: JSONValue]

    /// Reads the object content sent.
    ///
    /// - Throws: ``BridgeError`` (400) unless it is an object with a non-empty string `id`.
    init(_ data: JSONValue) throws {
        guard let fields = data.objectValue, let id = fields["id"]?.stringValue, !id.isEmpty else {
            throw BridgeError(
                .badRequest, "sessionupdate needs the session's id as a string: send {\"id\":\"…\",\"visit\":1}")
        }
        self.id = id
        self.fields = fields
    }

    /// The changes to store, given the session in the v1 shape as stored.
    ///
    /// - Throws: ``BridgeError`` (400) naming the host-recorded fields that would change, or a changeable
    ///   field of the wrong type with what it must be.
    func changes(to stored: [String: JSONValue]) throws -> SessionChanges {
        let refused = fields.keys.filter { key in
            !Self.changeable.contains(key) && stored[key].map { !Self.sameValue($0, fields[key]) } ?? false
        }
        guard refused.isEmpty else {
            throw BridgeError(
                .badRequest,
                "sessionupdate cannot change \(refused.sorted().joined(separator: ", ")): the host records "
                    + "\(refused.count == 1 ? "it" : "them"); only visit, checkIn and confirmed can change")
        }
        return SessionChanges(
            visit: try wholeNumber("visit"), checkIn: try wholeNumber("checkIn"), confirmed: try flag("confirmed"))
    }

    /// A field sent as a whole number (0 or more), if it was sent.
    private func wholeNumber(_ key: String) throws -> Int64? {
        guard let value = fields[key] else { return nil }
        guard let number = value.intValue, number >= 0 else {
            throw BridgeError(.badRequest, "sessionupdate: \(key) must be a whole number (0, 1, …)")
        }
        return number
    }

    /// A field sent as true or false (or 1 or 0, as the v1 session shows it), if it was sent.
    private func flag(_ key: String) throws -> Bool? {
        guard let value = fields[key] else { return nil }
        if let flag = value.boolValue { return flag }
        switch value.intValue {
        case 0: return false
        case 1: return true
        default: throw BridgeError(.badRequest, "sessionupdate: \(key) must be true, false, 0 or 1")
        }
    }

    /// Whether a value content sent equals the stored one (numbers as numbers, whatever their JSON type).
    private static func sameValue(_ stored: JSONValue, _ sent: JSONValue?) -> Bool {
        guard let sent else { return true }
        if let left = stored.intValue, let right = sent.intValue { return left == right }
        if let left = stored.intValue, let right = sent.stringValue.flatMap({ Int64($0) }) { return left == right }
        return stored == sent
    }
}
