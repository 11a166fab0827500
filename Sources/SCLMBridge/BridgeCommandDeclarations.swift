/// The commands of a ``DeclaredBridgeModule`` — written as an array literal of ``BridgeCommandDeclaration``s —
/// in their declared order (what `bridge.describe` lists), with an index by name made once, so finding a
/// request's declaration costs one hash lookup however many commands the module has.
package struct BridgeCommandDeclarations<Module: Sendable>: Sendable, ExpressibleByArrayLiteral {
    /// Every declaration, in declared order.
    package let all: [BridgeCommandDeclaration<Module>]
    private let positions: [String: Int]

    /// The declarations in `elements`' order; a name declared twice keeps its first declaration (the registry
    /// refuses such a module).
    package init(arrayLiteral elements: BridgeCommandDeclaration<Module>...) {
        all = elements
        positions = Dictionary(
            elements.enumerated().map { ($1.command.name, $0) }, uniquingKeysWith: { first, _ in first })
    }

    /// The declaration of the command named `name`, if the module declares it.
    package subscript(name: String) -> BridgeCommandDeclaration<Module>? {
        positions[name].map { all[$0] }
    }
}
