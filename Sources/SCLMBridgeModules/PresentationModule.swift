import Foundation
import SCLMBridge
import SCLMCore
import SCLMStore
import Synchronization

/// Presentation: `open`, `closePresentation`, `getPresentationInfo`, `getPreviousSlide`, `getNextSlide`,
/// `getBackForwardList`, `getBackForwardPresList`, `getPresentations`, `getCurrentSlideName`.
struct PresentationModule: HostModule {
    let host: PresentationHost
    let name = "Presentation"
    let commands: [BridgeCommand] = [
        "open", "closePresentation", "getPresentationInfo", "getPreviousSlide", "getNextSlide", "getBackForwardList",
        "getBackForwardPresList", "getPresentations", "getCurrentSlideName",
    ]

    /// `open {presId, slideName, data}`.
    struct OpenParameters: Decodable {
        let presId: LenientInt
        let slideName: String?
        let data: JSONValue?
    }

    /// `closePresentation {mode}`.
    struct CloseParameters: Decodable {
        let mode: LenientInt?
    }

    func immediate(_ request: BridgeRequest) throws -> BridgeReply? {
        switch request.command {
        case "getCurrentSlideName": return .ok(["slide": .string(try host.currentSlide())])
        case "getPresentationInfo": return .ok(try host.current().presentation.info)
        case "getBackForwardList": return .ok(.array(try host.current().slideHistory.map { .string($0) }))
        case "getBackForwardPresList":
            let history = host.state.withLock { $0.presentationHistory }
            return .ok(.array(history.map { ["name": .string($0.name), "presId": .int($0.presentationId)] }))
        default: return nil
        }
    }

    func deferred(_ request: BridgeRequest) async throws -> BridgeReply {
        switch request.command {
        case "open":
            guard let parameters = try? request.decode(OpenParameters.self) else {
                throw BridgeError(
                    .badRequest,
                    "InputData has wrong parameters presId or slideName or data: send {\"presId\":5,\"slideName\":\"\",\"data\":{}}"
                )
            }
            let slide = parameters.slideName?.trimmingCharacters(in: .whitespaces)
            if let slide, !slide.isEmpty, !ContentPath.isPlainName(slide) {
                throw BridgeError(.badRequest, "given slide name does not match conditions: \(slide)")
            }
            try await host.open(
                presentationId: parameters.presId.value, slide: slide?.isEmpty == false ? slide : nil,
                data: parameters.data ?? [:])
            return .ok()
        case "closePresentation":
            try await host.close(mode: try request.decode(CloseParameters.self).mode?.value ?? 0)
            return .ok()
        case "getPresentations":
            return .ok(try await host.clientPresentations())
        case "getPreviousSlide", "getNextSlide":
            // Deferred: the slide's own meta tags are read from its file.
            let direction: SwipeRule.Direction = request.command == "getNextSlide" ? .next : .previous
            return .ok(["slide": .string(try host.swipeTarget(direction))])
        default:
            throw BridgeError.unknownCommand(request.command)
        }
    }
}

extension PresentationHost {
    /// `getPresentations`: the installed presentations of the client, highest order first.
    func clientPresentations() async throws -> JSONValue {
        let scope = try scope()
        let presentations = try await store.read { db in try db.installedPresentations(in: scope) }
        return .array(presentations.map { ["name": .string($0.name), "presId": .int($0.presentationId)] })
    }
}
