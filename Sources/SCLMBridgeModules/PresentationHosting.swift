import SCLMBridge
import SCLMCore
import SCLMStore

/// What hosting a presentation needs from the program around it, for one sclm home: the home's store and
/// settings, the process facts, and the bridge modules the program assembles.
///
/// The player and the renderer are written against this; the command layer's services scope conforms (one
/// store, one configuration and one curl engine for every page it hosts), and ``makePresentationHost(presentationId:output:)``
/// and ``hostPage(_:presentationId:slide:siteHost:serverInfo:isolation:_:)`` build on it.
package protocol PresentationHosting: Sendable {
    /// The sclm home the presentations are installed in.
    var home: Home { get }
    /// The process environment (configuration overrides, the device language).
    var environment: [String: String] { get }
    /// The home's configuration with environment overrides.
    var configuration: Configuration { get }
    /// The current time.
    var clock: any WallClock { get }
    /// Where diagnostics go.
    var logger: Logger { get }

    /// The home's database, created with the home on first use.
    ///
    /// - Throws: `SCLMError`/`StoreError` when the home or database cannot be opened.
    func store() throws -> ContentStore

    /// The registry of a hosted presentation: `host`'s modules, the program's in-process modules, then
    /// `external` ones.
    ///
    /// - Throws: ``BridgeError`` when two modules claim one command; errors for malformed module settings.
    func makeModuleRegistry(host: PresentationHost, external: [any BridgeModule]) throws -> ModuleRegistry
}
