import Foundation
import SCLMCore

/// Keys of the StoryIoT analytics publisher (`sclm events flush`, the flush at the end of `sclm sync`).
///
/// Publishing is on when `iot.endpoint`, `iot.hub`, `iot.key` and `iot.secret` are all set; with none of
/// them set, analytics stay queued locally and `sclm sync` does not try to publish.
extension ConfigKey where Value == URL {
    /// The StoryIoT base URL.
    package static let iotEndpoint = ConfigKey(
        "iot.endpoint", help: "StoryIoT base URL that analytics are published to.", environment: "SCLM_IOT_ENDPOINT")
}

extension ConfigKey where Value == String {
    /// The hub that receives the messages.
    package static let iotHub = ConfigKey("iot.hub", help: "StoryIoT hub name.", environment: "SCLM_IOT_HUB")
    /// The publisher key (sent in the query, signed with the secret).
    package static let iotKey = ConfigKey("iot.key", help: "StoryIoT publisher key.", environment: "SCLM_IOT_KEY")
    /// The publisher secret: signs each request, never sent.
    package static let iotSecret = ConfigKey(
        "iot.secret", help: "StoryIoT publisher secret (signs requests; never sent).", environment: "SCLM_IOT_SECRET",
        secret: true)
}

extension ConfigKey where Value == Int {
    /// How long a request signature stays valid.
    package static let iotExpiration = ConfigKey(
        "iot.expiration", help: "Seconds a StoryIoT request signature stays valid.", default: 180, range: 1...86_400)

    /// Days the slide views of a published session are kept; every flush deletes older ones.
    package static let eventsRetention = ConfigKey(
        "events.retention",
        help: "Days the slide views of a published session are kept; every flush deletes older ones (0: at once).",
        default: 7, range: 0...3_650)

    /// Seconds between background flushes while `sclm bridge` runs; 0 (the default) turns them off.
    package static let bridgeFlushInterval = ConfigKey(
        "bridge.flushInterval", help: "Seconds between analytics flushes while `sclm bridge` runs (0: never).",
        default: 0, environment: "SCLM_BRIDGE_FLUSH_INTERVAL", range: 0...86_400)
}
