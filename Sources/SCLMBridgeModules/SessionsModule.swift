import Foundation
import SCLMBridge
import SCLMCore
import SCLMStore
import Synchronization

/// Sessions: `getSessions`, `getCurrentSession` (and its storyclm.js 2.2 name `getCurrentSessions`),
/// `getSessionById`, `setSessionComplete`.
struct SessionsModule: HostModule {
    let host: PresentationHost
    let name = "Sessions"
    let commands: [BridgeCommand] = [
        "getSessions", "getCurrentSession", "getCurrentSessions", "getSessionById", "setSessionComplete",
    ]

    /// `getSessionById {id}`.
    struct ByIdParameters: Decodable {
        let id: String
    }

    func deferred(_ request: BridgeRequest) async throws -> BridgeReply {
        switch request.command {
        case "getSessions": return .ok(try await host.sessionList())
        case "getCurrentSession", "getCurrentSessions": return .ok(try await host.currentSession())
        case "getSessionById": return .ok(try await host.sessionDetails(id: try request.decode(ByIdParameters.self).id))
        case "setSessionComplete":
            try await host.completeSession()
            return .ok()
        default: throw BridgeError.unknownCommand(request.command)
        }
    }
}
