import Foundation
import SCLMBridge
import SCLMBridgeModules
import SCLMBrowser
import SCLMCore
import SCLMStore

extension PresentationHosting {
    /// Loads installed presentation `presentationId` and a host for it writing to `output`, on this hosting's
    /// store and configuration: the host of every process that hosts a presentation (`sclm bridge` on stdio,
    /// `sclm play` and `sclm validate --render` in a browser page); its modules come from
    /// ``PresentationHosting/makeModuleRegistry(host:external:)``.
    ///
    /// Loaded before any module starts, so a presentation that is not installed fails at once.
    ///
    /// - Throws: `SCLMError` (`.notFound`) when it is not installed; store errors.
    package func makePresentationHost(presentationId: Int64, output: BridgeOutput) async throws
        -> (InstalledPresentation, PresentationHost)
    {
        let (store, configuration, home, processEnvironment) = (try store(), configuration, home, environment)
        let presentation = try await store.read { db in
            try InstalledPresentation.load(presentationId, from: db, home: home)
        }
        let environment = try await store.read { db in
            try HostEnvironment.load(configuration: configuration, db: db, processEnvironment: processEnvironment)
        }
        let host = PresentationHost(
            store: store, home: home, environment: environment, output: output, clock: clock, logger: logger)
        return (presentation, host)
    }

    /// Hosts presentation `presentationId` in a browser page: the host and registry of `sclm bridge`
    /// (``makePresentationHost(presentationId:output:)``, ``PresentationHosting/makeModuleRegistry(host:external:)``) on the
    /// page's bridge, the package served from `https://<siteHost>/`, the first slide shown; runs `body`,
    /// then ends the bridge's input (running work finishes, as on `sclm bridge`'s EOF) whatever happens.
    ///
    /// - Throws: store errors, ``BrowserError``, what `body` throws.
    package func hostPage<T: Sendable>(
        _ bridge: PageBridge, presentationId: Int64, slide: String?, siteHost: String, serverInfo: JSONValue = [:],
        isolation: isolated (any Actor)? = #isolation, _ body: (PresentationHost, PackageSite) async throws -> T
    ) async throws -> T {
        let (presentation, host) = try await makePresentationHost(presentationId: presentationId, output: bridge.output)
        let server = BridgeServer(
            registry: try makeModuleRegistry(host: host, external: []), output: bridge.output, logger: logger,
            serverInfo: serverInfo)
        let site = PackageSite(host: siteHost, root: presentation.sourcesDirectory)
        try await bridge.attach(serving: site)
        async let served: Void = bridge.serve(server)
        do {
            try await host.start(presentation, slide: slide)
            let result = try await body(host, site)
            bridge.finish()
            await served
            return result
        } catch {
            bridge.finish()
            await served
            throw error
        }
    }
}
