import Foundation
import SCLMBridge
import SCLMCore
import SCLMStore
import Synchronization

/// Map: `getMap` (from the slides' `linkedSlides`), `hideMapBtn`, `showMapBtn`.
struct MapModule: HostModule {
    let host: PresentationHost
    let name = "Map"
    let commands: [BridgeCommand] = ["getMap", "hideMapBtn", "showMapBtn"]

    func immediate(_ request: BridgeRequest) throws -> BridgeReply? {
        switch request.command {
        case "getMap": return .ok(try host.current().presentation.map)
        case "hideMapBtn": host.changeUI(request.command) { $0.mapButtonHidden = true }
        case "showMapBtn": host.changeUI(request.command) { $0.mapButtonHidden = false }
        default: return nil
        }
        return .ok()
    }
}
