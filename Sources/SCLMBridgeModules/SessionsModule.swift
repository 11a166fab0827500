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
    static let declarations: BridgeCommandDeclarations<Self> = [
        .deferred("getSessions") { module, _, _ in .ok(try await module.host.sessionList()) },
        .deferred("getCurrentSession") { module, _, _ in .ok(try await module.host.currentSession()) },
        .deferred("getCurrentSessions") { module, _, _ in .ok(try await module.host.currentSession()) },
        .deferred("getSessionById", parameters: ByIdParameters.self) { module, parameters, _ in
            .ok(try await module.host.sessionDetails(id: parameters.id))
        },
        .deferred("setSessionComplete") { module, _, _ in
            try await module.host.completeSession()
            return .ok()
        },
    ]

    /// `getSessionById {id}`.
    struct ByIdParameters: Decodable {
        let id: String
    }
}
