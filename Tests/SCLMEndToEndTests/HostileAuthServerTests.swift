import Foundation
import SCLMCore
import SCLMTestSupport
import Testing

/// `sclm login` and token refresh against a hostile auth server on 127.0.0.1 (`Tests/Fixtures/token_fixture.py`)
/// whose tokens would add header lines to every API request.
@Suite(.tags(.large), .timeLimit(.minutes(1))) struct HostileAuthServerTests {
    let server: ServerProcess
    let folder = TemporaryDirectory()
    var home: String { folder.appending("home") }

    init() throws { server = try ServerProcess(script: "Tests/Fixtures/token_fixture.py") }

    private func sclm(_ arguments: [String], attack: String, stdin: String = "") async throws -> ProcessResult {
        let environment = [
            "SCLM_AUTH_URL": server.url.absoluteString + "/" + attack, "SCLM_API_URL": server.url.absoluteString,
            "SCLM_CLIENT_ID": "client-1", "SCLM_CLIENT_SECRET": "secret-1",
        ]
        return try await ProcessRunner.sclm(arguments, home: home, stdin: stdin, environment: environment)
    }

    /// Nothing of the hostile token is in the home, and no request carried the header it would add.
    private func expectNothingInjected(sourceLocation: SourceLocation = #_sourceLocation) throws {
        let database = (try? Data(contentsOf: URL(fileURLWithPath: home + "/sclm.db"))) ?? Data()
        #expect(database.range(of: Data("X-Injected".utf8)) == nil, sourceLocation: sourceLocation)
        #expect(!server.log.lowercased().contains("x-injected"), "\(server.log)", sourceLocation: sourceLocation)
    }

    private func expectMalformedTokenFailure(_ result: ProcessResult, sourceLocation: SourceLocation = #_sourceLocation)
    {
        #expect(result.status == 69, "\(result)", sourceLocation: sourceLocation)
        #expect(
            result.stderr.contains("the auth server sent a malformed token"), "\(result)",
            sourceLocation: sourceLocation)
        #expect(!result.stderr.contains("evil"), sourceLocation: sourceLocation)
    }

    @Test(arguments: ["crlf-access", "crlf-type", "nul-access"])
    func aLoginWithAMalformedTokenFailsAndStoresNothing(_ attack: String) async throws {
        let password = try await sclm(["login", "--username", "u", "--password-stdin"], attack: attack, stdin: "pw\n")
        expectMalformedTokenFailure(password)
        let service = try await sclm(["login", "--service"], attack: attack)
        expectMalformedTokenFailure(service)
        let whoami = try await sclm(["whoami"], attack: attack)
        #expect(whoami.status == 77, "\(whoami)")
        try expectNothingInjected()
    }

    @Test func aRefreshWithAMalformedTokenFailsAndKeepsTheOldLogin() async throws {
        let login = try await sclm(
            ["login", "--username", "u", "--password-stdin"], attack: "on-refresh", stdin: "pw\n")
        #expect(login.status == 0, "\(login)")
        // The access token has already expired: the next request renews it.
        let sync = try await sclm(["sync", "--metadata-only"], attack: "on-refresh")
        expectMalformedTokenFailure(sync)
        #expect(server.log.contains("POST /on-refresh/connect/token"))
        let whoami = try await sclm(["whoami", "--json"], attack: "on-refresh")
        let status = try #require(try whoami.json() as? [String: Any])
        #expect(status["expired"] as? Bool == true)
        try expectNothingInjected()
    }
}
