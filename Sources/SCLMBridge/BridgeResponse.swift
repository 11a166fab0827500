import SCLMCore

/// One outbound line: the answer to a request, exactly as `StoryCLMBridge.StoryCLMHandler` expects.
///
/// Written as `{"GUID":…,"Status":…,"ErrorCode":…,"ErrorMessage":…,"Data":…}` in that key order, so a
/// host can pass the line to a WebView unchanged. `GUID` is `null` when the request's GUID could not be
/// read (malformed JSON, invalid GUID, over-long line).
package struct BridgeResponse: Sendable, Equatable {
    /// The request's GUID, echoed byte for byte.
    package var guid: String?
    /// HTTP-like: 200 on success (or the real status of an HTTP command).
    package var code: Int
    /// `Success`, `Failure`, or a reason phrase (HTTP commands).
    package var status: String
    /// Empty on success; what failed and what to do otherwise.
    package var message: String
    /// The result, `null` on failure.
    package var data: JSONValue

    /// Creates a response.
    package init(guid: String?, code: Int, status: String, message: String, data: JSONValue) {
        self.guid = guid
        self.code = code
        self.status = status
        self.message = message
        self.data = data
    }

    /// A response to `guid` carrying `reply`.
    package init(guid: String?, reply: BridgeReply) {
        self.init(
            guid: guid, code: reply.code, status: reply.status ?? Self.status(for: reply.code),
            message: reply.message, data: reply.data)
    }

    /// A failure response.
    package init(guid: String?, error: BridgeError) {
        self.init(guid: guid, code: error.code.rawValue, status: "Failure", message: error.message, data: .null)
    }

    /// `Success` for 2xx codes, `Failure` otherwise.
    package static func status(for code: Int) -> String {
        (200..<300).contains(code) ? "Success" : "Failure"
    }

    /// Appends the line (without its newline) to `bytes`.
    package func write(to bytes: inout [UInt8]) {
        bytes.append(contentsOf: #"{"GUID":"#.utf8)
        if let guid { JSONWriter.write(guid, to: &bytes) } else { bytes.append(contentsOf: "null".utf8) }
        bytes.append(contentsOf: #","Status":"#.utf8)
        JSONWriter.write(status, to: &bytes)
        bytes.append(contentsOf: #","ErrorCode":"#.utf8)
        JSONWriter.write(Int64(code), to: &bytes)
        bytes.append(contentsOf: #","ErrorMessage":"#.utf8)
        JSONWriter.write(message, to: &bytes)
        bytes.append(contentsOf: #","Data":"#.utf8)
        JSONWriter.write(data, to: &bytes)
        bytes.append(UInt8(ascii: "}"))
    }
}

/// One outbound event line: what a screen would do, `{"Event":…,"Data":…}`.
package struct BridgeEvent: Sendable, Equatable {
    /// The event name, e.g. `slideChanged`.
    package var name: String
    /// Its details.
    package var data: JSONValue

    /// Creates an event.
    package init(_ name: String, _ data: JSONValue) {
        self.name = name
        self.data = data
    }

    /// Creates one of the host's own events.
    package init(_ name: BridgeEventName, _ data: JSONValue) {
        self.init(name.rawValue, data)
    }

    /// Appends the line (without its newline) to `bytes`.
    package func write(to bytes: inout [UInt8]) {
        bytes.append(contentsOf: #"{"Event":"#.utf8)
        JSONWriter.write(name, to: &bytes)
        bytes.append(contentsOf: #","Data":"#.utf8)
        JSONWriter.write(data, to: &bytes)
        bytes.append(UInt8(ascii: "}"))
    }
}
