import Foundation
import SCLMCore

/// Reads page errors out of `Runtime.exceptionThrown`, `Runtime.consoleAPICalled` and the error binding
/// of ``PageScript``, each message cut to ``maximumMessageBytes`` with a note saying how much was cut.
package enum PageErrors {
    /// The most of one page message (console text, error message, dialog text) kept, in UTF-8 bytes.
    static let maximumMessageBytes = 2_000

    /// `Network.enable`'s parameters: only for the connections request interception never sees
    /// (`Network.webSocketCreated`, `Network.webTransportCreated`), so no request body rides on its events
    /// and no response body is kept for `Network.getResponseBody`.
    static let networkEnable: JSONValue = ["maxPostDataSize": 0, "maxTotalBufferSize": 0, "maxResourceBufferSize": 0]

    /// An uncaught exception: its message, script URL and 1-based line.
    package static func uncaught(_ params: JSONValue) -> PageIssue {
        let details = params["exceptionDetails"] ?? [:]
        let description = details["exception"]?["description"]?.stringValue
        let text = details["text"]?.stringValue ?? "Uncaught"
        let message = description.map { firstLine(of: $0) } ?? text
        let frame = details["stackTrace"]?["callFrames"]?.arrayValue?.first
        let url = details["url"]?.stringValue ?? frame?["url"]?.stringValue
        let line = oneBased(details["lineNumber"]?.intValue ?? frame?["lineNumber"]?.intValue)
        return .uncaughtError(message: capped(message), url: url, line: line)
    }

    /// A `console.error` call: its arguments joined, and where it was called.
    package static func console(_ params: JSONValue) -> PageIssue {
        let texts = (params["args"]?.arrayValue ?? []).map { argument in
            argument["value"]?.stringValue ?? argument["description"]?.stringValue ?? argument["value"]?.jsonString
                ?? ""
        }
        // Only the head is copied: arguments of 100 MB are never joined whole.
        var head: [UInt8] = []
        for text in texts where head.count <= maximumMessageBytes {
            if !head.isEmpty { head.append(UInt8(ascii: " ")) }
            head.append(contentsOf: text.utf8.prefix(maximumMessageBytes + 1 - head.count))
        }
        let total = texts.reduce(max(texts.count - 1, 0)) { $0 + $1.utf8.count }
        let frame = params["stackTrace"]?["callFrames"]?.arrayValue?.first
        return .consoleError(
            message: capped(String(decoding: head, as: UTF8.self), totalBytes: total),
            url: frame?["url"]?.stringValue, line: oneBased(frame?["lineNumber"]?.intValue))
    }

    /// Whether a payload of ``PageScript/errorBinding`` is an error a document kept as it left, told by
    /// the next one.
    package static func isKept(_ payload: String) -> Bool {
        (try? JSONParser.parse(Array(payload.utf8)))?["kept"]?.boolValue == true
    }

    /// An error the page's own handlers swallowed (`window.onerror` returning true, a handled
    /// `unhandledrejection`) or a worker's, as ``PageScript``'s listeners report it: `{message,url,line}`.
    package static func reported(_ payload: String) -> PageIssue? {
        guard let value = try? JSONParser.parse(Array(payload.utf8)), let message = value["message"]?.stringValue
        else { return nil }
        return .uncaughtError(
            message: capped(firstLine(of: message)), url: value["url"]?.stringValue.flatMap { $0.isEmpty ? nil : $0 },
            line: value["line"]?.intValue.flatMap { $0 > 0 ? Int($0) : nil })
    }

    /// A console error or uncaught exception too large to read (``DevToolsConnection/oversizedEvent``):
    /// its size, and the start of its first text when the head shows it.
    static func oversized(_ params: JSONValue) -> PageIssue? {
        let method = params["method"]?.stringValue ?? ""
        let head = params["head"]?.stringValue ?? ""
        let bytes = params["bytes"]?.intValue ?? 0
        let start =
            head.range(of: #""value":""#).map { head[$0.upperBound...].prefix(200) }
            ?? head.range(of: #""description":""#).map { head[$0.upperBound...].prefix(200) } ?? ""
        let text = start.prefix { $0 != "\"" && $0 != "\\" }
        let message = "\(text)… (a message of \(bytes) bytes, too large to read: cut)"
        switch method {
        case "Runtime.consoleAPICalled" where head.contains(#""type":"error""#):
            return .consoleError(message: message, url: nil, line: nil)
        case "Runtime.exceptionThrown":
            return .uncaughtError(message: message, url: nil, line: nil)
        default:
            return nil
        }
    }

    /// The `requestId` of a `Fetch.requestPaused` event too large to read, from its first bytes (Chromium
    /// writes it first).
    static func requestId(inHead params: JSONValue) -> String? {
        let head = params["head"]?.stringValue ?? ""
        guard let start = head.range(of: #""params":{"requestId":""#) else { return nil }
        let id = head[start.upperBound...].prefix { $0 != "\"" }
        return id.isEmpty || id.endIndex == head.endIndex ? nil : String(id)
    }

    /// A dialog the page opened.
    static func dialog(_ params: JSONValue, answered: Bool) -> PageIssue {
        .dialog(
            type: params["type"]?.stringValue ?? "alert", message: capped(params["message"]?.stringValue ?? ""),
            answered: answered)
    }

    /// `text` cut to ``maximumMessageBytes`` (at a character boundary) with `… (N bytes cut)` appended;
    /// `totalBytes` is the length of the whole message when `text` is only its head.
    static func capped(_ text: String, totalBytes: Int? = nil) -> String {
        let count = totalBytes ?? text.utf8.count
        guard count > maximumMessageBytes else { return text }
        var kept = 0
        var end = text.startIndex
        for index in text.indices {
            let next = kept + text[index].utf8.count
            if next > maximumMessageBytes { break }
            kept = next
            end = text.index(after: index)
        }
        return "\(text[..<end])… (\(count - kept) bytes cut)"
    }

    private static func firstLine(of text: String) -> String {
        text.split(separator: "\n", maxSplits: 1).first.map(String.init) ?? text
    }

    /// A DevTools 0-based line number as a 1-based one; `nil` for none, or one past `Int`.
    private static func oneBased(_ line: Int64?) -> Int? {
        line.flatMap { Checked($0).plus(1)?.exactly(Int.self) }
    }
}
