import SCLMBridge
import SCLMBridgeModules
import SCLMCore
import SCLMPlayer
import SCLMStore

/// A ``PresentationHosting`` on a real home and database, with the host's own modules only and no settings:
/// what the player and the renderer need, without the command layer.
struct StoreHosting: PresentationHosting {
    let home: Home
    let environment: [String: String] = [:]
    let configuration = Configuration()
    let clock: any WallClock = SystemClock()
    let logger: Logger
    private let contentStore: ContentStore

    /// A hosting of a new home at `root`, its diagnostics going to `log` (one call per line).
    init(root: String, log: @escaping @Sendable (String) -> Void = { _ in }) throws {
        home = Home(root: root)
        try home.prepare()
        contentStore = try ContentStore(path: home.databasePath)
        logger = Logger(minimumLevel: .info, writeLine: log)
    }

    func store() throws -> ContentStore { contentStore }

    func makeModuleRegistry(host: PresentationHost, external: [any BridgeModule]) throws -> ModuleRegistry {
        try ModuleRegistry(host.modules + external)
    }
}
