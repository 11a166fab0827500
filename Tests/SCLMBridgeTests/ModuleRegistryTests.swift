import SCLMBridge
import SCLMCore
import SCLMTestSupport
import Testing

/// A module that answers its name, for registry and server tests.
struct NamedModule: BridgeModule {
    let name: String
    let commands: [BridgeCommand]
    var lane: String? = nil

    func handle(_ request: BridgeRequest, context: BridgeContext) async throws -> BridgeReply {
        .ok(["module": .string(name), "command": .string(request.command)])
    }
}

@Suite(.tags(.small)) struct ModuleRegistryTests {
    @Test func routesEachCommandToItsModule() throws {
        let registry = try ModuleRegistry([
            NamedModule(name: "A", commands: ["a1", "a2"]), NamedModule(name: "B", commands: ["b"]),
        ])
        #expect(registry.serves("a2"))
        #expect(registry.serves("b"))
        #expect(!registry.serves("c"))
        #expect(registry.modules.map(\.name) == ["A", "B"])
    }

    @Test func aCommandDeclaredByTwoModulesFailsNamingBoth() {
        let error = #expect(throws: SCLMError.self) {
            try ModuleRegistry([
                NamedModule(name: "A", commands: ["go"]), NamedModule(name: "B", commands: ["x", "go"]),
            ])
        }
        #expect(error?.message == "command go is declared by both A and B; a command may have one module only")
        #expect(error?.category == .usage)
    }

    @Test func aCommandDeclaredTwiceByOneModuleFails() {
        #expect(throws: SCLMError.self) { try ModuleRegistry([NamedModule(name: "A", commands: ["x", "x"])]) }
    }

    @Test func theBridgeNamespaceBelongsToTheHost() {
        let error = #expect(throws: SCLMError.self) {
            try ModuleRegistry([NamedModule(name: "A", commands: ["bridge.ping"])])
        }
        #expect(error?.message.contains("belong to the host") == true)
    }

    @Test func aFailedRegistrationAddsNothing() throws {
        var registry = try ModuleRegistry([NamedModule(name: "A", commands: ["a"])])
        #expect(throws: SCLMError.self) { try registry.register(NamedModule(name: "B", commands: ["b", "a"])) }
        #expect(!registry.serves("b"))
    }
}
