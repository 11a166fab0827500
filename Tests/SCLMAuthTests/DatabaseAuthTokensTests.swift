import Foundation
import SCLMAuth
import SCLMStore
import SCLMTestSupport
import Testing

/// The login's rows in a real database file, read back strictly.
@Suite(.tags(.medium)) struct DatabaseAuthTokensTests {
    let folder = TemporaryDirectory()

    static let token = StoredToken(
        grant: .password, accessToken: "tok-SECRET", refreshToken: "refresh-SECRET",
        expiresAt: Date(timeIntervalSince1970: 1_767_225_600), issuedAt: Date(timeIntervalSince1970: 1_767_222_000),
        subject: "user-42", userName: "demo", authURL: "http://127.0.0.1:1/auth")

    @Test func savedTokensLoadBackAndClearingForgetsThem() async throws {
        let store = try ContentStore(path: folder.appending("sclm.db"))
        let tokens = DatabaseTokenStore(store: store)
        try await tokens.save(Self.token)
        #expect(try await tokens.load() == Self.token)
        #expect(
            try store.readNow { db in try db.fetchCount("SELECT count(*) FROM users WHERE userId = 'user-42'") } == 1)
        try await tokens.clear()
        #expect(try await tokens.load() == nil)
    }

    @Test func anUnknownGrantIsADecodingErrorThatNamesTheColumnNotTheToken() async throws {
        let store = try ContentStore(path: folder.appending("sclm.db"))
        try await DatabaseTokenStore(store: store).save(Self.token)
        try store.writeNow { db in try db.execute("UPDATE auth_tokens SET grantType = 'device_code'") }
        let error = try await #require(throws: StoreError.self) { try await DatabaseTokenStore(store: store).load() }
        #expect(error.code == .decoding && error.message.contains("auth_tokens.grantType"))
        #expect(!error.description.contains("SECRET"))
    }
}
