import SCLMBridge
import SCLMBridgeModules
import SCLMCore
import SCLMHTTP
import SCLMOSAM

extension Services {
    /// The registry of a hosted presentation: `host`'s modules, HTTP and OSAM, then `external` modules.
    ///
    /// The one assembly of the in-process bridge modules, for every process that hosts a presentation
    /// (`sclm bridge`, a player). HTTP and OSAM run on this scope's engine, each with its own policy.
    ///
    /// - Throws: ``BridgeError`` when two modules claim one command; `SCLMError` (`.usage`) or
    ///   ``ValidationError`` for a malformed `bridge.*`, `http.*` or `osam.*` setting.
    func makeModuleRegistry(host: PresentationHost, external: [any BridgeModule] = []) throws -> ModuleRegistry {
        try ModuleRegistry(host.modules + [try httpModule(), try osamModule()] + external)
    }

    /// The HTTP module over a transport of its own on the engine (`http.*` timeouts and CA bundle; cookies in
    /// memory, apart from the StoryCLM API's; no proxy unless `bridge.httpProxy`), which checks every hop and
    /// connection against `bridge.httpAllowedHosts`.
    private func httpModule() throws -> HTTPModule {
        let policy = try HTTPModule.Policy(configuration: configuration)
        var transportConfiguration = try APIServices.transportConfiguration(configuration, cookieJarPath: nil)
        transportConfiguration.networkRule = policy.rule
        // Direct unless bridge.httpProxy says otherwise: through http.proxy or a proxy variable, the rule
        // would judge the proxy's address, not the destination's.
        let proxy = configuration.value(.bridgeHTTPProxy).flatMap { $0.isEmpty ? nil : ProxyServer(url: $0) }
        transportConfiguration.proxy = proxy.map(ProxyChoice.server) ?? .direct
        return HTTPModule(transport: makeTransport(transportConfiguration), policy: policy)
    }

    /// The OSAM module over the home's OSAM state and the `osam.*` settings.
    private func osamModule() throws -> OSAMModule {
        OSAMModule(
            service: try osamService(), settings: OSAMModule.Settings(configuration: configuration),
            device: DeviceInformation.current(),
            deviceLanguage: DeviceInformation.language(environment: context.environment))
    }
}
