import SCLMBrowser
import SCLMCore

/// DevTools message decoding (`DevToolsMessage`): the input split at NUL bytes as the pipe frames it, and
/// the page errors read out of exception, console and error-binding events (`PageErrors`).
enum DevToolsTarget {
    static func fuzz(_ bytes: [UInt8]) {
        for message in bytes.split(separator: 0, omittingEmptySubsequences: false) {
            guard case .event(let method, _, let params)? = DevToolsMessage(Array(message)) else { continue }
            switch method {
            case "Runtime.exceptionThrown": _ = PageErrors.uncaught(params)
            case "Runtime.consoleAPICalled": _ = PageErrors.console(params)
            case "Runtime.bindingCalled":
                let payload = params["payload"]?.stringValue ?? ""
                _ = (PageErrors.isKept(payload), PageErrors.reported(payload))
            default: break
            }
        }
    }
}
