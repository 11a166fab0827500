import Foundation
import SCLMCore
import SCLMStore
import SCLMTestSupport
import Testing

/// Strict row decoding: a value of the asked type, or an error naming the table and the column.
@Suite(.tags(.small)) struct ColumnReaderTests {
    static let row = Row(columns: [
        ("id", .integer(7)), ("name", .text("Deck")), ("note", .null), ("ratio", .integer(2)), ("state", .integer(5)),
        ("secret", .text("tok-SECRET")),
    ])
    let columns = ColumnReader(Self.row, table: "things")

    @Test func readsEachTypeAndNullAsNil() throws {
        #expect(try columns.int64("id") == 7)
        #expect(try columns.text("name") == "Deck")
        #expect(try columns.optionalText("note") == nil)
        #expect(try columns.optionalInt64("note") == nil)
        #expect(try columns.double("ratio") == 2)
        #expect(try columns.bool("id"))
        #expect(try columns.value("state", as: SyncState.self) == .installed)
    }

    struct FailureCase: Sendable, CustomTestStringConvertible {
        let name: String
        let read: @Sendable (ColumnReader) throws -> Void
        let message: String
        var testDescription: String { name }
    }

    static let failures = [
        FailureCase(name: "a missing column", read: { _ = try $0.int64("gone") }, message: "things.gone is missing"),
        FailureCase(
            name: "NULL where a value is required", read: { _ = try $0.text("note") }, message: "things.note is NULL"),
        FailureCase(
            name: "text where an integer is expected", read: { _ = try $0.int64("name") },
            message: "things.name does not hold an integer"),
        FailureCase(
            name: "an integer where text is expected", read: { _ = try $0.optionalText("id") },
            message: "things.id does not hold text"),
        FailureCase(
            name: "an unknown enumeration value", read: { _ = try $0.value("id", as: SyncState.self) },
            message: "things.id holds 7"),
        FailureCase(
            name: "a value never shown", read: { _ = try $0.int64("secret") },
            message: "things.secret does not hold an integer"),
    ]

    @Test(arguments: failures) func aColumnThatCannotBeReadIsAnErrorNamingTableAndColumn(_ failure: FailureCase) throws
    {
        let error = try #require(throws: StoreError.self) { try failure.read(columns) }
        #expect(error.code == .decoding)
        #expect(error.message.contains(failure.message), "\(error.message)")
        #expect(!error.description.contains("SECRET"))
    }

    @Test func aRecordMissingAColumnIsNotFilledWithADefault() throws {
        let partial = Row(columns: [("clientId", .integer(1))])
        let error = try #require(throws: StoreError.self) { try ClientRecord(row: partial) }
        #expect(error.message.contains("clients.name is missing"))
    }
}
