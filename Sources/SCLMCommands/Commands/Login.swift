import Foundation
import SCLMAuth
import SCLMCore
import SCLMHTTP

extension SCLM {
    /// `sclm login`: obtain tokens with the password grant (a user) or client credentials (`--service`).
    package struct Login: Command {
        package static let configuration = CommandConfiguration(
            commandName: "login",
            abstract: "Log in to the StoryCLM auth server and keep the tokens in the home.",
            discussion: """
                Uses the password grant for a user, or with --service the client credentials grant for the
                application itself. The client id and secret come from auth.clientId and auth.clientSecret
                (SCLM_CLIENT_ID, SCLM_CLIENT_SECRET); the server from auth.url (SCLM_AUTH_URL).

                The user name comes from --username, else auth.username (SCLM_USERNAME), else a prompt.
                The password is never an argument: it is read from stdin with --password-stdin, else from
                SCLM_PASSWORD, else asked for on the terminal without echo. Tokens are stored in the home's
                database (mode 0600) and renewed automatically; run `sclm logout` to forget them.
                """,
            options: [usernameOption, passwordStdinFlag, serviceFlag])

        /// `--username name`: declared once, listed above and read below through this descriptor.
        static let usernameOption: CommandOption<String?> = .text(
            "--username", value: "name", help: "The user to log in as.")
        /// `--password-stdin`.
        static let passwordStdinFlag: CommandOption<Bool> = .flag(
            "--password-stdin", help: "Read the password from the first line of stdin.")
        /// `--service`.
        static let serviceFlag: CommandOption<Bool> = .flag(
            "--service", help: "Log in as the application (client credentials grant), not as a user.")

        let username: String?
        let passwordFromStdin: Bool
        let asService: Bool

        package init(parsing arguments: ParsedArguments) throws {
            username = try arguments.read(Self.usernameOption)
            passwordFromStdin = try arguments.read(Self.passwordStdinFlag)
            asService = try arguments.read(Self.serviceFlag)
        }

        package func validate() throws {
            if asService, username != nil || passwordFromStdin {
                throw ValidationError(
                    "--service logs in with the client credentials; drop --username and --password-stdin")
            }
        }

        package func run(_ context: CommandContext) async throws {
            try await context.withServices { try await logIn(with: try $0.api(), context: context) }
        }

        private func logIn(with services: APIServices, context: CommandContext) async throws {
            let endpoint = try services.tokenEndpoint()
            let (grant, grantType, login) =
                try asService
                ? (TokenGrant.clientCredentials, GrantType.clientCredentials, endpoint.clientId)
                : passwordGrant(services.configuration)
            let response = try await endpoint.requestToken(grant)
            let token = StoredToken(
                response: response, grant: grantType, now: context.clock.now, userName: login,
                authURL: endpoint.authURL.absoluteString)
            try await services.tokenStore.save(token)
            let status = LoginStatus(token: token, now: context.clock.now)
            if context.wantsJSON {
                context.printJSON(status)
            } else {
                context.print("Logged in to \(endpoint.authURL.hostDescription) as \(status.displayName).")
            }
        }

        private func passwordGrant(_ configuration: Configuration) throws -> (TokenGrant, GrantType, String) {
            let user =
                try username ?? configuration.value(.username)
                ?? ask(
                    "User name: ", echo: true,
                    missing: "a user name: give --username or set auth.username (SCLM_USERNAME)")
            guard !user.isEmpty else {
                throw AuthError(.notConfigured, detail: "the user name is empty; give --username")
            }
            let password = try readPassword(configuration, user: user)
            return (.password(username: user, password: password), .password, user)
        }

        private func readPassword(_ configuration: Configuration, user: String) throws -> String {
            let password: String
            if passwordFromStdin {
                password = readLine(strippingNewline: true) ?? ""
            } else if let fromEnvironment = try configuration.value(.password) {
                password = fromEnvironment
            } else {
                password = try ask(
                    "Password for \(user): ", echo: false,
                    missing: "a password: pipe it with --password-stdin, set SCLM_PASSWORD, or run on a terminal")
            }
            guard !password.isEmpty else { throw AuthError(.notConfigured, detail: "the password is empty") }
            return password
        }

        private func ask(_ prompt: TerminalText, echo: Bool, missing: String) throws -> String {
            guard TerminalPrompt.isAvailable else {
                throw AuthError(.notConfigured, detail: "sclm login needs \(missing)")
            }
            return try TerminalPrompt.read(prompt, echo: echo)
        }
    }
}

/// Who is logged in, as `sclm login --json` and `sclm whoami --json` print it (every key always present).
struct LoginStatus: CommandOutput, Equatable {
    /// The user (or client) id from the token's `sub` claim.
    var subject: String?
    /// The display name from the token's `fullname`/`name` claim.
    var name: String?
    /// The login name: the user name, or the client id for a service login.
    var userName: String?
    /// `password` or `client_credentials`.
    var grant: String
    /// The auth server.
    var authURL: String?
    /// When the access token expires.
    var expiresAt: Date
    /// Whether it has expired (it is renewed on the next request if possible).
    var expired: Bool
    /// Whether the login can renew itself (a refresh token, or client credentials).
    var renewable: Bool

    init(token: StoredToken, now: Date) {
        let claims = token.claims
        subject = token.subject ?? claims?.subject
        name = claims?.name
        userName = token.userName
        grant = token.grant.rawValue
        authURL = token.authURL
        expiresAt = token.expiresAt
        expired = token.isExpired(at: now)
        renewable = token.grant == .clientCredentials || token.refreshToken != nil
    }

    private enum CodingKeys: String, CodingKey {
        case subject, name, userName, grant, authURL, expiresAt, expired, renewable
    }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(subject, forKey: .subject)
        try container.encode(name, forKey: .name)
        try container.encode(userName, forKey: .userName)
        try container.encode(grant, forKey: .grant)
        try container.encode(authURL, forKey: .authURL)
        try container.encode(expiresAt, forKey: .expiresAt)
        try container.encode(expired, forKey: .expired)
        try container.encode(renewable, forKey: .renewable)
    }

    /// The `sclm whoami` form.
    var text: TerminalText {
        let expiry = Timestamp.string(from: expiresAt)
        let validity =
            expired
            ? "expired at \(expiry)\(renewable ? " (renewed on the next request)" : " — run `sclm login`")"
            : "valid until \(expiry)"
        return TextTable.keyValues([
            ("user", "\(displayName)"),
            ("id", "\(subject ?? "unknown")"),
            ("grant", grant == GrantType.password.rawValue ? "password" : "client credentials (service)"),
            ("server", "\(authURL.flatMap { URL(string: $0)?.hostDescription } ?? "unknown")"),
            ("access token", "\(validity)"),
        ])
    }

    /// `Demo User (demo@storyclm.test)`, or whatever of it is known.
    var displayName: String {
        switch (name, userName ?? subject) {
        case (let name?, let login?) where !name.contains(login): "\(name) (\(login))"
        case (let name?, _): name
        case (nil, let login?): login
        case (nil, nil): "an unnamed account"
        }
    }
}
