import Foundation
import SCLMAnalytics
import SCLMArchive
import SCLMBridgeModules
import SCLMCore
import SCLMHTTP
import SCLMOSAM
import SCLMSync
import SCLMTestSupport
import Testing

@testable import SCLMCommands

/// A setting is read through its typed key, which refuses a bad value in the same words wherever the value
/// comes from: `config.json`, the environment, `sclm config set`, a command-line flag.
@Suite(.tags(.small))
struct TypedSettingsTests {
    /// A key, a value it refuses and the refusal every entry point must say.
    struct Case: Sendable, CustomTestStringConvertible {
        let key: AnyConfigKey
        let bad: String
        let refusal: String
        /// The same key read through its typed value.
        let read: @Sendable (Configuration) throws -> Void
        /// The flag that gives the key's value for one run, if any.
        let flag: (@Sendable (String) throws -> Void)?

        var testDescription: String { key.name }
    }

    static let cases: [Case] = [
        Case(
            key: ConfigKey.syncJobs.any, bad: "0", refusal: "sync.jobs must be a whole number from 1 to 64, got '0'",
            read: { _ = try $0.value(.syncJobs) }, flag: { _ = try SCLM.Sync.jobsOption.value(given: [$0]) }),
        Case(
            key: ConfigKey.osamVersionCode.any, bad: "-3",
            refusal: "osam.versionCode must be a whole number of at least 1, got '-3'",
            read: { _ = try $0.value(.osamVersionCode) }, flag: { _ = try OsamOptions.versionCode.value(given: [$0]) }),
        Case(
            key: ConfigKey.osamPlatform.any, bad: "windows",
            refusal: "osam.platform must be IOS or ANDROID, got 'windows'",
            read: { _ = try $0.value(.osamPlatform) }, flag: { _ = try OsamOptions.platform.value(given: [$0]) }),
        Case(
            key: ConfigKey.osamEndpoint.any, bad: "ftp://osam.example",
            refusal: "osam.endpoint must be an http(s) URL such as https://host.example, got 'ftp://osam.example'",
            read: { _ = try $0.value(.osamEndpoint) }, flag: { _ = try OsamOptions.endpoint.value(given: [$0]) }),
        Case(
            key: ConfigKey.syncBlobProxy.any, bad: "http://cache.site/?sig=1",
            refusal: "sync.blobProxy must be an http(s) URL without a query, e.g. http://cache.site:8080, got "
                + "'http://cache.site/?sig=1'",
            read: { _ = try $0.value(.syncBlobProxy) }, flag: nil),
        Case(
            key: ConfigKey.bridgeHTTPAllowedHosts.any, bad: "printer.lan, 10.0.0.0/33",
            refusal: "bridge.httpAllowedHosts cannot be read: '10.0.0.0/33' is not a host name",
            read: { _ = try $0.value(.bridgeHTTPAllowedHosts) }, flag: nil),
        Case(
            key: ConfigKey.iotExpiration.any, bad: "soon",
            refusal: "iot.expiration must be a whole number from 1 to 86400, got 'soon'",
            read: { _ = try $0.value(.iotExpiration) }, flag: nil),
    ]

    @Test(arguments: cases) func aBadValueIsRefusedInTheSameWordsEverywhere(_ setting: Case) throws {
        let stored = #expect(throws: SCLMError.self) {
            try setting.read(Configuration(stored: [setting.key.name: setting.bad]))
        }
        #expect(stored?.description.contains(setting.refusal) == true, "config.json: \(String(describing: stored))")
        var configuration = Configuration()
        let set = #expect(throws: SCLMError.self) { try configuration.set(setting.key, to: setting.bad) }
        #expect(set?.description.contains(setting.refusal) == true, "config set: \(String(describing: set))")
        #expect(configuration.stored.isEmpty, "nothing refused is stored")
        if let variable = setting.key.environmentVariable {
            let environment = #expect(throws: SCLMError.self) {
                try setting.read(Configuration(environment: [variable: setting.bad]))
            }
            #expect(environment?.description.contains(setting.refusal) == true, "\(String(describing: environment))")
            #expect(environment?.description.contains("fix \(variable) in the environment") == true)
        }
        if let flag = setting.flag {
            let given = #expect(throws: ValidationError.self) { try flag(setting.bad) }
            let reason = setting.refusal.dropFirst(setting.key.name.count + 1)
            #expect(given?.description.contains(reason) == true, "flag: \(String(describing: given))")
        }
    }

    @Test func typedReadsGiveTypedValuesAndDefaults() throws {
        let configuration = Configuration(stored: [
            "osam.platform": "android", "bridge.httpAllowedHosts": "printer.lan:631", "sync.blobProxyFallback": "false",
            "sync.blobProxy": "http://cache.site:8080/",
        ])
        #expect(try configuration.value(.osamPlatform) == .android)
        #expect(try configuration.value(.bridgeHTTPAllowedHosts) == NetworkRule(parsing: "printer.lan:631"))
        #expect(try configuration.required(.syncBlobProxyFallback) == false)
        #expect(try configuration.value(.syncBlobProxy)?.base == URL(string: "http://cache.site:8080"))
        #expect(try configuration.required(.syncJobs) == 4)
        #expect(try configuration.required(.syncContentPolicy) == .install)
        let unset = #expect(throws: SCLMError.self) { try configuration.required(.osamVersionCode) }
        #expect(unset?.description.contains("osam.versionCode is not set") == true)
    }
}
