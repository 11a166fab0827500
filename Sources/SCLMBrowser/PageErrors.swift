import SCLMCore

/// Reads page errors out of `Runtime.exceptionThrown` and `Runtime.consoleAPICalled` events.
package enum PageErrors {
    /// An uncaught exception: its message, script URL and 1-based line.
    package static func uncaught(_ params: JSONValue) -> PageIssue {
        let details = params["exceptionDetails"] ?? [:]
        let description = details["exception"]?["description"]?.stringValue
        let text = details["text"]?.stringValue ?? "Uncaught"
        let message = description.map { $0.split(separator: "\n").first.map(String.init) ?? $0 } ?? text
        let frame = details["stackTrace"]?["callFrames"]?.arrayValue?.first
        let url = details["url"]?.stringValue ?? frame?["url"]?.stringValue
        let line = oneBased(details["lineNumber"]?.intValue ?? frame?["lineNumber"]?.intValue)
        return .uncaughtError(message: message, url: url, line: line)
    }

    /// A `console.error` call: its arguments joined, and where it was called.
    package static func console(_ params: JSONValue) -> PageIssue {
        let arguments = params["args"]?.arrayValue ?? []
        let message = arguments.map { argument in
            argument["value"]?.stringValue ?? argument["description"]?.stringValue ?? argument["value"]?.jsonString
                ?? ""
        }.joined(separator: " ")
        let frame = params["stackTrace"]?["callFrames"]?.arrayValue?.first
        return .consoleError(
            message: message, url: frame?["url"]?.stringValue, line: oneBased(frame?["lineNumber"]?.intValue))
    }

    /// The 1-based line of DevTools' 0-based `lineNumber`, through ``Checked``: the browser's number cannot
    /// make the addition trap (`nil` when it does not fit).
    private static func oneBased(_ line: Int64?) -> Int? {
        line.flatMap { Checked($0).plus(1)?.exactly(Int.self) }
    }
}
