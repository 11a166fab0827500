/// A ``BridgeModule`` whose commands are its ``declarations``: the registry's command list,
/// `bridge.describe`, the immediate answers and the dispatch all derive from that one list, so a command
/// without a handler does not compile and a handler is never unreachable.
///
/// ```swift
/// struct Clock: DeclaredBridgeModule {
///     let name = "Clock"
///     static let declarations: BridgeCommandDeclarations<Clock> = [
///         .immediate("clock.now") { _, _ in .ok(["now": .string(Timestamp.string(from: Date()))]) }
///     ]
/// }
/// ```
package protocol DeclaredBridgeModule: BridgeModule {
    /// Every command of the module with its handler, in the order `bridge.describe` lists them.
    static var declarations: BridgeCommandDeclarations<Self> { get }
}

extension DeclaredBridgeModule {
    package var commands: [BridgeCommand] { Self.declarations.all.map(\.command) }

    package func reply(immediatelyTo request: BridgeRequest) throws -> BridgeReply? {
        guard case .immediate(let body) = try Self.declaration(of: request.command).handler else { return nil }
        return try body(self, request)
    }

    package func handle(_ request: BridgeRequest, context: BridgeContext) async throws -> BridgeReply {
        try await Self.declaration(of: request.command).run(self, request, context: context)
    }

    /// The declaration of `command`.
    ///
    /// - Throws: ``BridgeError`` (404) when the module does not declare it.
    private static func declaration(of command: String) throws -> BridgeCommandDeclaration<Self> {
        guard let declaration = declarations[command] else {
            throw BridgeError.unknownCommand(command)
        }
        return declaration
    }
}
