import SCLMAnalytics
import SCLMBridgeModules
import SCLMCore

extension APIServices {
    /// The StoryIoT publisher from the `iot.*` settings, or `nil` when none of them is set.
    ///
    /// - Throws: ``AnalyticsError`` (`.notConfigured`) for partial or malformed settings, a storage error
    ///   when the device id cannot be stored.
    func analyticsPublisher(context: CommandContext) async throws -> Publisher? {
        guard let credentials = try StoryIoTCredentials.load(from: configuration) else { return nil }
        let device = try await DeviceFacts.current(
            store: store, app: (try configuration.value(.appName), try configuration.value(.appVersion)),
            environment: context.environment)
        let client = StoryIoTClient(
            credentials: credentials, transport: transport, clock: context.clock, timeout: requestTimeout)
        let retentionDays = try configuration.required(.eventsRetention)
        return Publisher(
            outbox: Outbox(store: store), client: client, device: device, retrier: retrier,
            retention: .seconds(retentionDays * 86_400), clock: context.clock, logger: context.logger)
    }
}
