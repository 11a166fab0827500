import Foundation
import SCLMStore
import SCLMTestSupport
import Testing

/// Every record the catalog upserts comes back from its table as it went in, with a different value in
/// every field: a record whose `columns` and `bind` disagree in order (two binds of one type swapped, a
/// column listed out of place) writes a value into another field's column, and its round trip fails.
@Suite(.tags(.small)) struct RecordRoundTripTests {
    /// A record type, upserted and read back by its own `init(row:)`.
    struct Kind: Sendable, CustomTestStringConvertible {
        let name: String
        let roundTrip: @Sendable (_ pass: Int) throws -> Void

        init<R: UpsertableRecord & Codable & Equatable>(_ type: R.Type, read: @escaping @Sendable (Row) throws -> R) {
            name = R.table
            roundTrip = { pass in
                let record = try R(from: DistinctValues(pass: pass))
                let db = try Database(path: ":memory:")
                try Migrator.sclm.migrate(db)
                try db.execute("PRAGMA foreign_keys = OFF")
                try db.write { try $0.upsert([record]) }
                let rows = try db.fetchAll("SELECT * FROM \(R.table)")
                #expect(try rows.map(read) == [record], "pass \(pass)")
            }
        }

        var testDescription: String { name }
    }

    static let kinds = [
        Kind(ClientRecord.self, read: ClientRecord.init(row:)),
        Kind(PresentationRecord.self, read: PresentationRecord.init(row:)),
        Kind(SlideRecord.self, read: SlideRecord.init(row:)),
        Kind(MediaFileRecord.self, read: MediaFileRecord.init(row:)),
        Kind(ContentPackageRecord.self, read: ContentPackageRecord.init(row:)),
    ]

    @Test(arguments: kinds) func aRecordComesBackAsItWentIn(_ kind: Kind) throws {
        // The n-th Boolean field is bit `pass` of n: any two Boolean fields differ in one of the passes.
        for pass in 0..<4 { try kind.roundTrip(pass) }
    }

    @Test func swappedBindsAreCaught() throws {
        let record = try Swapped(from: DistinctValues(pass: 0))
        let db = try Database(path: ":memory:")
        try Migrator.sclm.migrate(db)
        try db.write { try $0.upsert([record]) }
        let read = try #require(try db.fetchAll("SELECT * FROM clients").first.map(ClientRecord.init(row:)))
        #expect(read.email == record.url && read.url == record.email, "the decoy writes url into email")
    }
}

/// `clients` with the binds of `email` and `url` swapped: what the round trip must catch.
private struct Swapped: UpsertableRecord, Decodable {
    static let table = ClientRecord.table
    static let columns = ClientRecord.columns
    let clientId: Int64
    let name: String
    let email: String?
    let url: String?
    var primaryKey: Int64 { clientId }

    func bind(_ bind: inout ColumnBinder) throws {
        try bind(clientId)
        try bind(name)
        for _ in 0..<2 { try bind(String?.none) }
        try bind(url)
        try bind(email)
        for _ in 0..<2 { try bind(String?.none) }
        try bind(false)
        for _ in 0..<3 { try bind(String?.none) }
    }
}

/// A decoder that gives every field of a record a value no other field has: texts `"v1"`, `"v2"`, …, whole
/// numbers 1, 2, …, and the n-th Boolean bit `pass` of n; optional fields are present.
private struct DistinctValues: Decoder {
    /// Counts the values handed out, shared by the containers of one decoding.
    final class Counter {
        var next = 0
        var booleans = 0
    }

    let pass: Int
    let counter = Counter()
    var codingPath: [any CodingKey] = []
    var userInfo: [CodingUserInfoKey: Any] = [:]

    func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
        KeyedDecodingContainer(Keyed<Key>(source: self))
    }

    func unkeyedContainer() throws -> any UnkeyedDecodingContainer {
        throw DecodingError.typeMismatch(
            [Any].self, .init(codingPath: codingPath, debugDescription: "records are flat"))
    }

    func singleValueContainer() throws -> any SingleValueDecodingContainer {
        throw DecodingError.typeMismatch(Any.self, .init(codingPath: codingPath, debugDescription: "records are flat"))
    }

    /// The next value of `type`.
    func value<T>(_ type: T.Type) throws -> T {
        counter.next += 1
        let value: Any? =
            switch type {
            case is String.Type: "v\(counter.next)"
            case is Int64.Type: Int64(counter.next)
            case is Int.Type: counter.next
            case is Bool.Type: nextBoolean()
            default: nil
            }
        guard let typed = value as? T else {
            throw DecodingError.typeMismatch(type, .init(codingPath: codingPath, debugDescription: "not a column type"))
        }
        return typed
    }

    private func nextBoolean() -> Bool {
        counter.booleans += 1
        return counter.booleans >> pass & 1 == 1
    }

    struct Keyed<Key: CodingKey>: KeyedDecodingContainerProtocol {
        let source: DistinctValues
        var codingPath: [any CodingKey] { source.codingPath }
        var allKeys: [Key] { [] }

        func contains(_ key: Key) -> Bool { true }
        func decodeNil(forKey key: Key) throws -> Bool { false }
        func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T { try source.value(type) }
        func decode(_ type: Bool.Type, forKey key: Key) throws -> Bool { try source.value(type) }
        func decode(_ type: String.Type, forKey key: Key) throws -> String { try source.value(type) }
        func decode(_ type: Int64.Type, forKey key: Key) throws -> Int64 { try source.value(type) }

        func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type, forKey key: Key) throws
            -> KeyedDecodingContainer<NestedKey>
        {
            try source.container(keyedBy: type)
        }

        func nestedUnkeyedContainer(forKey key: Key) throws -> any UnkeyedDecodingContainer {
            try source.unkeyedContainer()
        }

        func superDecoder() throws -> any Decoder { source }
        func superDecoder(forKey key: Key) throws -> any Decoder { source }
    }
}
