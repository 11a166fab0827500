import Foundation
import SCLMBridge
import SCLMCore
import SCLMStore
import Synchronization

/// Base: `go`, `getNavigationData`, `getAppInfo`, `getUserInfo`, `getGeoLocationInfo`.
struct BaseModule: HostModule {
    let host: PresentationHost
    let name = "Base"
    static let declarations: BridgeCommandDeclarations<Self> = [
        .deferred("go", parameters: GoParameters.self) { module, parameters, _ in try await module.go(parameters) },
        .immediate("getNavigationData") { module, _ in .ok(module.host.state.withLock { $0.navigationData }) },
        .immediate("getAppInfo") { module, _ in .ok(module.host.environment.appInfo) },
        .immediate("getUserInfo") { module, _ in .ok(module.host.environment.userInfo) },
        .immediate("getGeoLocationInfo") { module, _ in .ok(module.host.environment.geoLocation) },
    ]

    /// `go {slideName, data}`.
    struct GoParameters: Decodable {
        let slideName: String?
        let data: JSONValue?
    }

    private func go(_ parameters: GoParameters) async throws -> BridgeReply {
        guard let slide = parameters.slideName?.trimmingCharacters(in: .whitespaces), !slide.isEmpty else {
            throw BridgeError(.badRequest, "navigation data is empty: send {\"slideName\":\"2.html\",\"data\":{}}")
        }
        guard ContentPath.isPlainName(slide) else {
            throw BridgeError(
                .badRequest, "given slide name does not match conditions: \(slide) (a file name at the package root)")
        }
        try await host.go(to: slide, data: parameters.data ?? [:])
        return .ok()
    }
}
