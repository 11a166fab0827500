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
    static let declarations: BridgeCommandDeclarations<Self> = [
        .deferred("open") { module, request, _ in try await module.open(request) },
        .deferred("closePresentation", parameters: CloseParameters.self) { module, parameters, _ in
            try await module.host.close(mode: parameters.mode?.value ?? 0)
            return .ok()
        },
        .immediate("getPresentationInfo") { module, _ in .ok(try module.host.current().presentation.info) },
        // Deferred: the slide's own meta tags are read from its file.
        .deferred("getPreviousSlide") { module, _, _ in .ok(["slide": .string(try module.host.swipeTarget(.previous))])
        },
        .deferred("getNextSlide") { module, _, _ in .ok(["slide": .string(try module.host.swipeTarget(.next))]) },
        .immediate("getBackForwardList") { module, _ in
            .ok(.array(try module.host.current().slideHistory.map { .string($0) }))
        },
        .immediate("getBackForwardPresList") { module, _ in
            let history = module.host.state.withLock { $0.presentationHistory }
            return .ok(.array(history.map { ["name": .string($0.name), "presId": .int($0.presentationId)] }))
        },
        .deferred("getPresentations") { module, _, _ in .ok(try await module.host.clientPresentations()) },
        .immediate("getCurrentSlideName") { module, _ in .ok(["slide": .string(try module.host.currentSlide())]) },
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

    private func open(_ request: BridgeRequest) async throws -> BridgeReply {
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
