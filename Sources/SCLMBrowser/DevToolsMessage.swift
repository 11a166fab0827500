import SCLMCore

/// One message the browser wrote on the DevTools pipe, decoded from its bytes (without the NUL).
///
/// A pure function of bytes, so the fuzz target runs the same decoding as ``DevToolsConnection``'s reader.
package enum DevToolsMessage: Sendable, Equatable {
    /// The answer to command `id`: its `result` (`{}` when absent).
    case result(id: Int, JSONValue)
    /// The browser refused command `id`, with its error message.
    case refusal(id: Int, message: String)
    /// An event: its method, the session it belongs to (`""` for the browser) and its params.
    case event(method: String, session: String, params: JSONValue)

    /// Decodes `bytes`; `nil` when they are not a JSON object with an integer `id` or a string `method`.
    package init?(_ bytes: [UInt8]) {
        guard let message = try? JSONParser.parse(bytes), let object = message.objectValue else { return nil }
        if let number = object["id"]?.intValue {
            guard let id = Int(exactly: number) else { return nil }
            if let error = object["error"] {
                self = .refusal(id: id, message: error["message"]?.stringValue ?? error.jsonString)
            } else {
                self = .result(id: id, object["result"] ?? [:])
            }
        } else if let method = object["method"]?.stringValue {
            self = .event(
                method: method, session: object["sessionId"]?.stringValue ?? "", params: object["params"] ?? [:])
        } else {
            return nil
        }
    }
}
