import Foundation
import SCLMCore
import SCLMHTTP
import SCLMTestSupport
import Testing

/// `sclm login`, `whoami` and `logout` against the dev-server, through the built binary.
@Suite(.tags(.large), .timeLimit(.minutes(1))) struct LoginTests {
    let server: DevServer
    let folder = TemporaryDirectory()
    var home: String { folder.appending("home") }

    init() throws { server = try DevServer(["--quiet"]) }

    private func sclm(_ arguments: [String], stdin: String = "", environment: [String: String] = [:]) async throws
        -> ProcessResult
    {
        try await ProcessRunner.sclm(
            arguments, home: home, stdin: stdin, environment: server.environment.merging(environment) { _, new in new })
    }

    @Test func aPasswordLoginStoresTokensThatWhoamiReads() async throws {
        let login = try await sclm(
            ["login", "--username", DevServer.username, "--password-stdin"], stdin: DevServer.password + "\n")
        #expect(login.status == 0, "\(login)")
        #expect(login.stdout == "Logged in to \(server.url.hostDescription) as Demo User (demo@storyclm.test).\n")
        let whoami = try await sclm(["whoami", "--json"])
        let object = try #require(try whoami.json() as? [String: Any])
        #expect(object["subject"] as? String == "6f1c2a4e-0000-4000-8000-000000000001")
        #expect(object["name"] as? String == "Demo User")
        #expect(object["grant"] as? String == "password")
        #expect(object["expired"] as? Bool == false)
        #expect(object["renewable"] as? Bool == true)
        let stats = try await server.stats()
        #expect(stats.count("POST /connect/token password") == 1)
        #expect(FileSystem.mode(of: home + "/cookies.txt") == 0o600)
        #expect(try String(contentsOfFile: home + "/cookies.txt", encoding: .utf8).contains("sclm_session"))
    }

    @Test func aServiceLoginUsesTheClientCredentials() async throws {
        let login = try await sclm(["login", "--service", "--json"])
        #expect(login.status == 0, "\(login)")
        let object = try #require(try login.json() as? [String: Any])
        #expect(object["grant"] as? String == "client_credentials")
        #expect(object["subject"] as? String == DevServer.clientId)
        #expect(try await server.stats().count("POST /connect/token client_credentials") == 1)
        let whoami = try await sclm(["whoami"])
        #expect(whoami.stdout.contains("client credentials (service)"))
    }

    @Test func theUserNameMayComeFromTheEnvironmentAndThePasswordToo() async throws {
        let login = try await sclm(
            ["login"], environment: ["SCLM_USERNAME": DevServer.username, "SCLM_PASSWORD": DevServer.password])
        #expect(login.status == 0, "\(login)")
        #expect(login.stdout.hasSuffix("as Demo User (demo@storyclm.test).\n"), "\(login)")
        #expect(login.stderr.isEmpty, "no prompt was needed: \(login)")
        #expect(try await server.stats().count("POST /connect/token password") == 1)
        let whoami = try #require(try await sclm(["whoami", "--json"]).json() as? [String: Any])
        #expect(whoami["grant"] as? String == "password")
    }

    @Test func theSessionCookieIsSentBackLater() async throws {
        _ = try await sclm(["login", "--service"])
        _ = try await sclm(["sync", "--metadata-only"])
        let stats = try await server.stats()
        #expect(stats.count(prefix: "GET /v1/") > 0)
        #expect((stats.raw["sessionCookies"]?["presented"]?.intValue ?? 0) >= stats.count(prefix: "GET /v1/"))
        #expect(stats.raw["sessionCookies"]?["issued"]?.intValue == 1)
    }

    @Test func aWrongPasswordExits77WithoutShowingIt() async throws {
        let secret = "hunter2-is-wrong"
        let result = try await sclm(
            ["-v", "login", "--username", DevServer.username, "--password-stdin"], stdin: secret + "\n")
        #expect(result.status == 77, "\(result)")
        #expect(result.stderr.contains("rejected the user name or password"))
        #expect(!result.stderr.contains(secret) && !result.stdout.contains(secret))
    }

    @Test func thePasswordNeverAppearsInArgumentsLogsJSONOrErrors() async throws {
        let secret = DevServer.password
        let flag = try await sclm(["login", "--username", DevServer.username, "--password", secret])
        #expect(flag.status == 64)
        #expect(flag.stderr.contains("unknown option '--password'"))
        let help = try await sclm(["login", "--help"])
        #expect(!help.stdout.contains("--password <"))
        let verbose = try await sclm(
            ["-v", "--json", "login"], environment: ["SCLM_USERNAME": DevServer.username, "SCLM_PASSWORD": secret])
        #expect(verbose.status == 0, "\(verbose)")
        #expect(verbose.stderr.contains("debug:"))
        let unreachable = try await sclm(
            ["-v", "--json", "login", "--password-stdin", "--username", "x"], stdin: secret + "\n",
            environment: ["SCLM_AUTH_URL": "http://127.0.0.1:1"])
        #expect(unreachable.status == 69, "\(unreachable)")
        #expect(unreachable.stderr.contains("cannot connect to 127.0.0.1:1"))
        let listing = try await sclm(["config", "list", "--json"], environment: ["SCLM_PASSWORD": secret])
        for result in [flag, help, verbose, unreachable, listing] {
            #expect(!result.stdout.contains(secret) && !result.stderr.contains(secret), "\(result)")
        }
        let database = try Data(contentsOf: URL(fileURLWithPath: home + "/sclm.db"))
        #expect(database.range(of: Data(secret.utf8)) == nil)
    }

    @Test func withoutAPasswordSourceLoginSaysHowToGiveOne() async throws {
        let result = try await sclm(["login", "--username", DevServer.username])
        #expect(result.status == 64)
        #expect(result.stderr.contains("--password-stdin"))
        #expect(result.stderr.contains("SCLM_PASSWORD"))
    }

    @Test func withoutAClientIdLoginSaysWhichSettingIsMissing() async throws {
        let result = try await sclm(["login", "--service"], environment: ["SCLM_CLIENT_ID": ""])
        #expect(result.status == 64)
        #expect(result.stderr.contains("auth.clientId is not set"))
    }

    @Test func logoutForgetsTokensAndCookies() async throws {
        _ = try await sclm(["login", "--service"])
        let logout = try await sclm(["logout"])
        #expect(logout.stdout == "Logged out.\n")
        #expect(!FileSystem.exists(home + "/cookies.txt"))
        let whoami = try await sclm(["whoami"])
        #expect(whoami.status == 77)
        #expect(whoami.stderr.contains("not logged in — run `sclm login`"))
    }
}
