import Foundation
import SCLMBridge
import SCLMCore
import SCLMStore
import Synchronization

/// UI: `hideCloseBtn`, `hideSystemBtns` (each emits `uiChanged`).
struct UIModule: HostModule {
    let host: PresentationHost
    let name = "UI"
    let commands: [BridgeCommand] = ["hideCloseBtn", "hideSystemBtns"]

    func immediate(_ request: BridgeRequest) throws -> BridgeReply? {
        switch request.command {
        case "hideCloseBtn": host.changeUI(request.command) { $0.closeButtonHidden = true }
        case "hideSystemBtns": host.changeUI(request.command) { $0.systemButtonsHidden = true }
        default: return nil
        }
        return .ok()
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
        emit("uiChanged", .object(data))
    }
}
