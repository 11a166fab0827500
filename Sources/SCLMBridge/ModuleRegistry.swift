import SCLMCore

/// Routes each command to the one module that serves it (StoryContent's `subscribe(module:toCommands:)`).
///
/// Built once at start-up: registering a command that another module already serves, or one in the
/// reserved `bridge.` namespace, is an error that stops the host before it reads any input.
package struct ModuleRegistry: Sendable {
    /// The reserved prefix of transport commands (`bridge.ping`, `bridge.describe`, `bridge.cancel`).
    package static let reservedPrefix = "bridge."

    /// The registered modules, in registration order.
    package private(set) var modules: [any BridgeModule] = []
    /// Where each command goes.
    private(set) var routes: [String: BridgeCore.Route] = [:]
    private var lanes: [String: Int] = [:]

    /// Creates an empty registry.
    package init() {}

    /// Creates a registry holding `modules`.
    ///
    /// - Throws: `SCLMError` (`.usage`) for a command declared twice or in the reserved namespace.
    package init(_ modules: [any BridgeModule]) throws {
        for module in modules { try register(module) }
    }

    /// Adds `module` and its commands.
    ///
    /// - Throws: `SCLMError` (`.usage`) naming the command and both modules; nothing is added then.
    package mutating func register(_ module: any BridgeModule) throws {
        var seen = Set<String>()
        for command in module.commands {
            if command.name.hasPrefix(Self.reservedPrefix) {
                throw SCLMError(
                    .usage,
                    "module \(module.name) declares \(command.name), but the \(Self.reservedPrefix)* commands belong to the host; rename it"
                )
            }
            if let other = routes[command.name] {
                throw SCLMError(
                    .usage,
                    "command \(command.name) is declared by both \(modules[other.module].name) and \(module.name); a command may have one module only"
                )
            }
            if !seen.insert(command.name).inserted {
                throw SCLMError(.usage, "module \(module.name) declares \(command.name) twice")
            }
        }
        let lane = module.lane.map { name in
            if let existing = lanes[name] { return existing }
            lanes[name] = lanes.count
            return lanes.count - 1
        }
        for command in module.commands {
            routes[command.name] = BridgeCore.Route(module: modules.count, timeout: command.timeout, lane: lane)
        }
        modules.append(module)
    }

    /// Whether some module serves `command`.
    package func serves(_ command: String) -> Bool { routes[command] != nil }

    /// The number of ordered lanes in use.
    var laneCount: Int { lanes.count }

    /// `[{"name":…,"commands":[…]}]` for `bridge.describe`.
    var descriptions: [JSONValue] {
        modules.map { module in
            ["name": .string(module.name), "commands": .array(module.commands.map { .string($0.name) })]
        }
    }
}
