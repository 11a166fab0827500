import SCLMBridgeModules
import SCLMCore

/// Where the renderer gets a ``PresentationHosting`` for a home of its own (the throwaway home of a
/// `validate --render` run), and what it keeps from the caller's: the user's home (read for
/// `--home-settings`), the process environment (the browser's) and the logger.
package protocol HostingProvider: Sendable {
    /// The user's sclm home.
    var home: Home { get }
    /// The process environment.
    var environment: [String: String] { get }
    /// Where diagnostics go.
    var logger: Logger { get }

    /// Opens the hosting of the home at `root`, its settings read with `environment`, runs `body` with it, and
    /// closes it (its network engine stops) when `body` returns or throws.
    ///
    /// - Throws: errors reading the home's settings, or what `body` throws.
    func withHosting<T: Sendable>(
        home root: String, environment: [String: String], _ body: (any PresentationHosting) async throws -> T
    ) async throws -> T
}
