import Foundation
import SCLMBridge
import SCLMCore
import SCLMStore

/// Version1: the commands of storyclm.js 1.x that 2.x renamed or dropped — `getsessions`,
/// `getsessionbyid`, `sessionupdate` (also `sessionconupdate`), `deletesessionbyid`,
/// `setPresentationComplete`, `consolelog` — with the session shape of the v1 docs (`{id, start, end,
/// duration, slides, presentationId, …}`), inside sclm's own envelope. Sessions are scoped as the 2.x
/// commands are: another client's (or, under a password login, another user's) session answers 404.
struct Version1Module: HostModule {
    let host: PresentationHost
    let name = "Version1"
    static let declarations: BridgeCommandDeclarations<Self> = [
        .deferred("getsessions") { module, _, _ in
            .ok(.array(try await module.host.visibleSessions().map(module.host.version1)))
        },
        .deferred("getsessionbyid", parameters: ByIdParameters.self) { module, parameters, _ in
            .ok(module.host.version1(try await module.host.visibleSession(id: parameters.id)))
        },
        // storyclm.js 1.7.x sends the session object itself as `Data`; the v1 docs spell it `sessionconupdate`.
        .deferred("sessionupdate", updateSession),
        .deferred("sessionconupdate", updateSession),
        .deferred("deletesessionbyid", parameters: ByIdParameters.self) { module, parameters, _ in
            .ok(module.host.version1(try await module.host.deleteSession(id: parameters.id)))
        },
        .deferred("setPresentationComplete") { module, _, _ in
            try await module.host.completeSession()
            return .ok()
        },
        .immediate("consolelog") { module, request in
            module.host.logger.debug("content console: \(Self.consoleText(request.data))")
            return .ok()
        },
    ]

    /// `sessionupdate`, `sessionconupdate`: the session object with the fields to change → the session as stored.
    @Sendable static func updateSession(_ module: Self, _ request: BridgeRequest, _: BridgeContext) async throws
        -> BridgeReply
    {
        .ok(module.host.version1(try await module.host.updateSession(request.data)))
    }

    /// `{id}`.
    struct ByIdParameters: Decodable {
        let id: String
    }

    /// What a `consolelog` prints: its `message` (or `text`, `log`) if it is a string, else its `Data`.
    static func consoleText(_ data: JSONValue) -> String {
        for key in ["message", "text", "log", "msg"] {
            if let text = data[key]?.stringValue { return TerminalText.escaping(text) }
        }
        if let text = data.stringValue { return TerminalText.escaping(text) }
        return TerminalText.escaping(String(decoding: JSONWriter.bytes(data), as: UTF8.self))
    }
}
