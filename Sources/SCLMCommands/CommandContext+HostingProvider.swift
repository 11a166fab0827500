import SCLMBridgeModules
import SCLMPlayer

/// The renderer's throwaway homes are hosted by a services scope on a context like this one (same output,
/// terminal, clock and log level) whose home and environment are the renderer's.
extension CommandContext: HostingProvider {
    package func withHosting<T: Sendable>(
        home root: String, environment: [String: String], _ body: (any PresentationHosting) async throws -> T
    ) async throws -> T {
        var globals = globals
        globals.home = root
        let child = CommandContext(
            globals: globals, environment: environment, commandPath: commandPath, stdout: stdout, terminal: terminal,
            clock: clock)
        return try await child.withServices { services in try await body(services) }
    }
}
