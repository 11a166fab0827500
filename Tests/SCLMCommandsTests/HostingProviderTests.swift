import SCLMBridgeModules
import SCLMCore
import SCLMPlayer
import SCLMTestSupport
import Testing

@testable import SCLMCommands

/// The composition root hosts the renderer's throwaway home: a services scope on that home, read with the
/// environment the renderer gives, never the user's home or its variables.
@Suite(.tags(.small)) struct HostingProviderTests {
    @Test func aHostingIsOpenedOnTheGivenHomeAndEnvironment() async throws {
        let folder = TemporaryDirectory(prefix: "sclm-hosting")
        var globals = GlobalOptions()
        globals.home = folder.appending("user")
        let context = CommandContext(
            globals: globals, environment: ["SCLM_HOME": "/elsewhere", "LANG": "C"],
            commandPath: ["sclm", "validate"],
            terminal: TerminalInfo(isStdoutTerminal: false, usesColor: false, columns: 80))
        let throwaway = Home(root: folder.appending("render"))
        try throwaway.prepare()
        try Configuration(stored: ["osam.versionCode": "100"]).save(to: throwaway.configPath)
        let root = try await context.withHosting(home: throwaway.root, environment: ["LANG": "C"]) { hosting in
            #expect(hosting.environment == ["LANG": "C"])
            #expect(hosting.configuration.stored == ["osam.versionCode": "100"])
            _ = try hosting.store()
            return hosting.home.root
        }
        #expect(root == throwaway.root)
        #expect(FileSystem.exists(throwaway.databasePath))
        #expect(!FileSystem.exists(folder.appending("user")), "the user's home is not touched")
    }
}
