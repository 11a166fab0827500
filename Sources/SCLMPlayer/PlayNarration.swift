import SCLMBridge
import SCLMBrowser
import SCLMCore

/// What `sclm play` prints in text mode as the page runs: one escaped line per slide shown, bridge error,
/// uncaught error, console error, dialog, refused request or missing file.
enum PlayNarration {
    /// The line for an event the host emitted, or `nil` for events a person need not see.
    static func line(forEvent event: JSONValue) -> TerminalText? {
        let data = event["Data"] ?? .null
        switch event["Event"]?.stringValue.flatMap(BridgeEventName.init(rawValue:)) {
        case .presentationOpened:
            guard let slide = data["slide"]?.stringValue else { return nil }
            return "slide: \(slide) (opened \(data["name"]?.stringValue ?? "?"))"
        case .slideChanged where data["previous"] != JSONValue.null:
            // Without a previous slide it is the opening slide, which `presentationOpened` said.
            return data["slide"]?.stringValue.map { slide in "slide: \(slide)" }
        case .osamAlert:
            return "OSAM alert: \(data.jsonString)"
        default:
            return nil
        }
    }

    /// The line for a page issue, or `nil` for issues a player does not print (navigation, crashes: the
    /// outcome says those).
    static func line(for issue: PageIssue) -> TerminalText? {
        switch issue {
        case .navigation, .crashed: nil
        case .uncaughtError: "error: \(issue.summary)"
        default: "warning: \(issue.summary)"
        }
    }
}
