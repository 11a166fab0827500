import SCLMBridgeModules
import SCLMCore
import SCLMPlayer

/// A command's services scope hosts presentations for the player, the renderer and `sclm bridge`: its store
/// and configuration, the context's home, environment and clock, and ``makeModuleRegistry(host:external:)``.
extension Services: PresentationHosting {
    var home: Home { context.home }
    var environment: [String: String] { context.environment }
    var clock: any WallClock { context.clock }
}
