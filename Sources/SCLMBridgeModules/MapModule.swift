import Foundation
import SCLMBridge
import SCLMCore
import SCLMStore
import Synchronization

/// Map: `getMap` (from the slides' `linkedSlides`), `hideMapBtn`, `showMapBtn`.
struct MapModule: HostModule {
    let host: PresentationHost
    let name = "Map"
    static let declarations: BridgeCommandDeclarations<Self> = [
        .immediate("getMap") { module, _ in .ok(try module.host.current().presentation.map) },
        .uiChange("hideMapBtn") { $0.mapButtonHidden = true },
        .uiChange("showMapBtn") { $0.mapButtonHidden = false },
    ]
}
