import SCLMBridge
import SCLMCore
import SCLMStore

extension PresentationHosting {
    /// Loads installed presentation `presentationId` and a host for it writing to `output`, on this hosting's
    /// store and configuration: the host of every process that hosts a presentation (`sclm bridge` on stdio,
    /// `sclm play` and `sclm validate --render` in a browser page); its modules come from
    /// ``PresentationHosting/makeModuleRegistry(host:external:)``.
    ///
    /// Loaded before any module starts, so a presentation that is not installed fails at once. The host ends
    /// sessions by itself as `sessionPolicy` says (`sclm bridge`: never).
    ///
    /// - Throws: `SCLMError` (`.notFound`) when it is not installed; store errors.
    package func makePresentationHost(
        presentationId: Int64, output: BridgeOutput, sessionPolicy: SessionPolicy = .byContent
    ) async throws -> (InstalledPresentation, PresentationHost) {
        let (store, configuration, home, processEnvironment) = (try store(), configuration, home, environment)
        let presentation = try await store.read { db in
            try InstalledPresentation.load(presentationId, from: db, home: home)
        }
        let environment = try await store.read { db in
            try HostEnvironment.load(configuration: configuration, db: db, processEnvironment: processEnvironment)
        }
        let host = PresentationHost(
            store: store, home: home, environment: environment, output: output, clock: clock, logger: logger,
            sessionPolicy: sessionPolicy)
        return (presentation, host)
    }
}
