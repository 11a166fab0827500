import Foundation
import SCLMBridge
import SCLMCore
import SCLMStore
import Synchronization

/// Base: `go`, `getNavigationData`, `getAppInfo`, `getUserInfo`, `getGeoLocationInfo`.
struct BaseModule: HostModule {
    let host: PresentationHost
    let name = "Base"
    let commands: [BridgeCommand] = ["go", "getNavigationData", "getAppInfo", "getUserInfo", "getGeoLocationInfo"]

    /// `go {slideName, data}`.
    struct GoParameters: Decodable {
        let slideName: String?
        let data: JSONValue?
    }

    func immediate(_ request: BridgeRequest) throws -> BridgeReply? {
        switch request.command {
        case "getNavigationData": .ok(host.state.withLock { $0.navigationData })
        case "getAppInfo": .ok(host.environment.appInfo)
        case "getUserInfo": .ok(host.environment.userInfo)
        case "getGeoLocationInfo": .ok(host.environment.geoLocation)
        default: nil
        }
    }

    func deferred(_ request: BridgeRequest) async throws -> BridgeReply {
        guard request.command == "go" else { throw BridgeError.unknownCommand(request.command) }
        let parameters = try request.decode(GoParameters.self)
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
