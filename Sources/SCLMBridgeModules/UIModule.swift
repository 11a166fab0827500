import Foundation
import SCLMBridge
import SCLMCore
import SCLMStore
import Synchronization

/// UI: `hideCloseBtn`, `hideSystemBtns` (each emits `uiChanged`).
struct UIModule: HostModule {
    let host: PresentationHost
    let name = "UI"
    static let declarations: BridgeCommandDeclarations<Self> = [
        .uiChange("hideCloseBtn") { $0.closeButtonHidden = true },
        .uiChange("hideSystemBtns") { $0.systemButtonsHidden = true },
    ]
}

extension BridgeCommandDeclaration where Module: HostModule {
    /// A command that applies `change` to the host's buttons and answers `{}` at once.
    static func uiChange(_ name: String, _ change: @escaping @Sendable (inout PresentationHost.UIFlags) -> Void) -> Self
    {
        .immediate(name) { module, _ in
            module.host.changeUI(name, change)
            return .ok()
        }
    }
}

extension PresentationHost {
    /// Applies a UI change and emits `uiChanged` with the command and every flag.
    func changeUI(_ command: String, _ change: (inout UIFlags) -> Void) {
        let flags = state.withLock { state in
            change(&state.ui)
            return state.ui
        }
        var data = flags.json.objectValue ?? [:]
        data["command"] = .string(command)
        emit(.uiChanged, .object(data))
    }
}
