import Foundation
import SCLMCore
import SCLMHTTP
import SCLMStore

/// One StoryIoT message: the `s-m-*` metadata headers and the JSON body of an outbox row.
package struct StoryIoTMessage: Sendable, Equatable {
    /// The largest body StoryIoT accepts in one publish (256 KB); larger ones need its blob upload flow.
    package static let maxBodyBytes = 256 * 1024

    /// The entity id (`s-m-id`).
    package let entityId: String
    /// The metadata headers, in StoryIoT's order.
    package let headers: HTTPHeaders
    /// The body: compact JSON with sorted keys, non-ASCII as UTF-8.
    package let body: Data

    /// Builds the message for `entry`.
    ///
    /// Body keys are StoryContent's `asDict` keys for the kind; `NULL` columns are left out, as a Swift
    /// dictionary leaves out `nil`. Headers: `s-m-eid` event id, `did` device, `uid` user (when known),
    /// `ct` the session id (the correlation of a session with its slide views and events), `id` the row
    /// id, `cud` `u` (an upsert: a retried or updated row is the same entity), `m`, `os`, `osv`, `an`,
    /// `av` from `device`, `lt` the row's local time, `tz` its zone in hours, `geo` `on;lat,lon` or
    /// `off`, `lng`, `ns`.
    ///
    /// - Throws: ``MessageError`` when the row cannot be sent (bad `created`, body over 256 KB).
    package init(entry: OutboxEntry, device: DeviceFacts, zone: TimeZone = .current) throws {
        let (row, columns) = (entry.row, entry.columns)
        guard let created = Timestamp.date(from: columns.created) else {
            throw MessageError("its created time '\(columns.created)' is not an ISO-8601 date")
        }
        let timeZone = columns.timeZone
        let localTime = LocalTime.string(for: created, timeZoneHours: timeZone, zone: zone)
        var body: [String: JSONValue] = [:]
        for field in entry.kind.bodyFields {
            body[field.column] = Self.value(of: field, in: row, localTime: localTime)
        }
        let encoded = Data(JSONWriter.bytes(.object(body)))
        guard encoded.count <= Self.maxBodyBytes else {
            throw MessageError(
                "its body is \(encoded.count) bytes and StoryIoT accepts at most \(Self.maxBodyBytes) in one message")
        }
        var headers: [(String, String?)] = [
            ("s-m-eid", entry.kind.eventId), ("s-m-did", device.deviceId), ("s-m-uid", columns.userId),
            ("s-m-ct", entry.sessionId), ("s-m-id", entry.id), ("s-m-cud", "u"), ("s-m-m", device.model),
            ("s-m-os", device.os), ("s-m-osv", device.osVersion), ("s-m-an", device.appName),
            ("s-m-av", device.appVersion), ("s-m-lt", localTime), ("s-m-tz", String(timeZone)),
        ]
        headers.append(("s-m-geo", Self.geo(latitude: columns.latitude, longitude: columns.longitude)))
        headers += [("s-m-lng", device.language), ("s-m-ns", device.network)]
        self.entityId = entry.id
        self.body = encoded
        self.headers = HTTPHeaders(
            headers.compactMap { name, value in
                value.flatMap { $0.isEmpty ? nil : HTTPHeader(name: name, value: Self.headerSafe($0)) }
            })
    }

    /// `on;lat,lon` when both are known, else `off`.
    static func geo(latitude: Double?, longitude: Double?) -> String {
        guard let latitude, let longitude else { return "off" }
        return "on;\(latitude),\(longitude)"
    }

    private static func value(of field: BodyField, in row: Row, localTime: String) -> JSONValue? {
        let value = row[field.column]
        guard !value.isNull else { return nil }
        switch field {
        case .text: return String.fromDatabaseValue(value).map(JSONValue.string)
        case .integer: return Int64.fromDatabaseValue(value).map(JSONValue.int)
        case .boolean: return Bool.fromDatabaseValue(value).map(JSONValue.bool)
        case .number: return Double.fromDatabaseValue(value).map(JSONValue.double)
        case .localTime: return .string(localTime)
        }
    }

    /// `text` without control characters, so a configured or stored value cannot break the header block.
    private static func headerSafe(_ text: String) -> String {
        let isControl: (Unicode.Scalar) -> Bool = { $0.value < 0x20 || $0.value == 0x7F }
        guard text.unicodeScalars.contains(where: isControl) else { return text }
        return String(String.UnicodeScalarView(text.unicodeScalars.filter { !isControl($0) }))
    }
}

/// Why a row cannot be turned into a StoryIoT message; the row is parked with this reason.
package struct MessageError: CategorizedError, Equatable {
    /// What is wrong with the row.
    package let reason: String

    init(_ reason: String) { self.reason = reason }

    package var category: ErrorCategory { .policy }
    package var description: String { reason }
}
