/// One bridge command of a ``DeclaredBridgeModule``: its name, timeout, immediacy and handler, declared
/// together, so a command cannot be listed without the code that answers it.
///
/// ```swift
/// static let declarations: BridgeCommandDeclarations<Clock> = [
///     .immediate("clock.now") { clock, _ in .ok(["now": .string(clock.now())]) },
///     .deferred("clock.sleep", parameters: SleepParameters.self) { clock, parameters, _ in
///         try await clock.sleep(parameters.ms)
///     },
/// ]
/// ```
package struct BridgeCommandDeclaration<Module: Sendable>: Sendable {
    /// How the handler runs.
    package enum Handler: Sendable {
        /// Answered at once on the dispatching thread; must not block (``BridgeModule/reply(immediatelyTo:)``).
        case immediate(@Sendable (Module, BridgeRequest) throws -> BridgeReply)
        /// Run as a task of its own (``BridgeModule/handle(_:context:)``).
        case deferred(@Sendable (Module, BridgeRequest, BridgeContext) async throws -> BridgeReply)
    }

    /// The command's name and timeout.
    package let command: BridgeCommand
    /// The code that answers it.
    package let handler: Handler

    /// A command answered at once from in-memory state.
    package static func immediate(
        _ name: String, _ body: @escaping @Sendable (Module, BridgeRequest) throws -> BridgeReply
    ) -> Self {
        Self(command: BridgeCommand(name), handler: .immediate(body))
    }

    /// A command run as a task (store, files, network).
    package static func deferred(
        _ name: String, timeout: Duration? = nil,
        _ body: @escaping @Sendable (Module, BridgeRequest, BridgeContext) async throws -> BridgeReply
    ) -> Self {
        Self(command: BridgeCommand(name, timeout: timeout), handler: .deferred(body))
    }

    /// A command run as a task whose `Data` is decoded as `parameters` first (400 naming what is wrong).
    package static func deferred<Parameters: Decodable & Sendable>(
        _ name: String, parameters: Parameters.Type, timeout: Duration? = nil,
        _ body: @escaping @Sendable (Module, Parameters, BridgeContext) async throws -> BridgeReply
    ) -> Self {
        deferred(name, timeout: timeout) { module, request, context in
            try await body(module, try request.decode(Parameters.self), context)
        }
    }

    /// Runs the handler, whichever lane it was declared for.
    ///
    /// - Throws: what the handler throws.
    func run(_ module: Module, _ request: BridgeRequest, context: BridgeContext) async throws -> BridgeReply {
        switch handler {
        case .immediate(let body): try body(module, request)
        case .deferred(let body): try await body(module, request, context)
        }
    }
}
