import Foundation
import SCLMBridge
import SCLMBridgeModules
import SCLMBrowser
import SCLMCore
import SCLMStore

extension PresentationHosting {
    /// Hosts presentation `presentationId` in a browser page: the host and registry of `sclm bridge`
    /// (``makePresentationHost(presentationId:output:)``, ``PresentationHosting/makeModuleRegistry(host:external:)``) on the
    /// page's bridge, the package served from `https://<siteHost>/`, the first slide shown; runs `body`,
    /// then ends the bridge's input (running work finishes, as on `sclm bridge`'s EOF) and waits for the
    /// recording to be written (``PresentationHost/finishRecording(patience:)``) whatever happens. The host ends
    /// sessions as `sessionPolicy` says; `continuing` (a browser restart) continues the slide view it ended on.
    ///
    /// - Throws: store errors, ``BrowserError``, what `body` throws.
    package func hostPage<T: Sendable>(
        _ bridge: PageBridge, presentationId: Int64, slide: String?, siteHost: String, serverInfo: JSONValue = [:],
        sessionPolicy: SessionPolicy = .byContent, continuing: Bool = false,
        isolation: isolated (any Actor)? = #isolation, _ body: (PresentationHost, PackageSite) async throws -> T
    ) async throws -> T {
        let (presentation, host) = try await makePresentationHost(
            presentationId: presentationId, output: bridge.output, sessionPolicy: sessionPolicy)
        let server = BridgeServer(
            registry: try makeModuleRegistry(host: host, external: []), output: bridge.output, logger: logger,
            serverInfo: serverInfo)
        let site = PackageSite(host: siteHost, root: presentation.sourcesDirectory)
        try await bridge.attach(serving: site)
        async let served: Void = bridge.serve(server)
        do {
            try await host.start(presentation, slide: slide, continuing: continuing)
            let result = try await body(host, site)
            bridge.finish()
            await served
            await withCancellationShield { await host.finishRecording() }
            return result
        } catch {
            bridge.finish()
            await served
            await withCancellationShield { await host.finishRecording() }
            throw error
        }
    }
}
