import Foundation
import SCLMCore
import SCLMStore
import SCLMTestSupport

@testable import SCLMAnalytics

/// A temporary store with analytics rows, for outbox and publisher tests.
struct AnalyticsStore {
    let folder = TemporaryDirectory()
    let store: ContentStore

    init() throws {
        store = try ContentStore(path: folder.appending("sclm.db"))
    }

    var outbox: Outbox { Outbox(store: store) }

    /// Writes rows with `body` in one transaction.
    func write(_ body: @escaping @Sendable (Database) throws -> Void) throws {
        try store.writeNow(body)
    }

    /// Every entry the next flush would publish, by kind.
    func entries(_ kind: OutboxKind, includeParked: Bool = false) async throws -> [OutboxEntry] {
        try await outbox.entries(of: kind, after: 0, limit: 1000, includeParked: includeParked)
    }

    /// The ids of ``entries(_:includeParked:)``.
    func ids(_ kind: OutboxKind, includeParked: Bool = false) async throws -> [String] {
        try await entries(kind, includeParked: includeParked).map(\.id)
    }

    /// One column of a row.
    func column(_ name: String, of kind: OutboxKind, id: String) throws -> DatabaseValue {
        try store.readNow { db in
            try db.fetchOne("SELECT \(name) FROM \(kind.table) WHERE \(kind.idColumn) = ?", [id])?[name] ?? .null
        }
    }
}

extension DeviceFacts {
    /// Fixed facts for tests.
    static let fixture = DeviceFacts(
        deviceId: "8D5E3A4C-0000-4000-8000-00000000D1D0", model: "Kiosk 3000", os: "Linux", osVersion: "6.1.0",
        appName: "sclm", appVersion: "1.2.3", language: "de", network: "LAN")
}
