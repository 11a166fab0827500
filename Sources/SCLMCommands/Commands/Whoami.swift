import SCLMAuth
import SCLMCore

extension SCLM {
    /// `sclm whoami`: the stored login, read from the token's claims (no request is sent).
    package struct Whoami: Command {
        package static let configuration = CommandConfiguration(
            commandName: "whoami",
            abstract: "Show who is logged in, how, and until when the access token is valid.",
            discussion: "Reads the stored tokens only; exits 77 when nobody is logged in.")

        package init(parsing arguments: ParsedArguments) throws {}

        package func run(_ context: CommandContext) async throws {
            guard let token = try await DatabaseTokenStore(store: try context.readingStore()).load() else {
                throw AuthError(.notLoggedIn)
            }
            context.emit(LoginStatus(token: token, now: context.clock.now))
        }
    }

    /// `sclm logout`: forget the stored tokens and session cookies.
    package struct Logout: Command {
        package static let configuration = CommandConfiguration(
            commandName: "logout",
            abstract: "Forget the stored tokens and session cookies.",
            discussion: "Nothing is sent to the server. Content and metadata stay in the home.")

        package init(parsing arguments: ParsedArguments) throws {}

        package func run(_ context: CommandContext) async throws {
            let tokens = DatabaseTokenStore(store: try context.store())
            let wasLoggedIn = try await tokens.load() != nil
            try await tokens.clear()
            let jar = context.home.cookieJarPath
            try await BlockingWork.file("sclm.remove") { try FileSystem.removeTree(jar) }
            if context.wantsJSON {
                context.printJSON(["loggedOut": true, "wasLoggedIn": wasLoggedIn])
            } else {
                context.print(wasLoggedIn ? "Logged out." : "Not logged in; nothing to forget.")
            }
        }
    }
}
