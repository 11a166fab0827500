import SCLMCore

/// One outbound line: the answer to a request, exactly as `StoryCLMBridge.StoryCLMHandler` expects.
///
/// Written as `{"GUID":…,"Status":…,"ErrorCode":…,"ErrorMessage":…,"Data":…}` in that key order, so a
/// host can pass the line to a WebView unchanged. `GUID` is `null` when the request's GUID could not be
/// read (malformed JSON, invalid GUID, over-long line).
public struct BridgeResponse: Sendable, Equatable {
    /// The request's GUID, echoed byte for byte.
    public var guid: String?
    /// HTTP-like: 200 on success (or the real status of an HTTP command).
    public var code: Int
    /// `Success`, `Failure`, or a reason phrase (HTTP commands).
    public var status: String
    /// Empty on success; what failed and what to do otherwise.
    public var message: String
    /// The result, `null` on failure.
    public var data: JSONValue

    /// Creates a response.
    public init(guid: String?, code: Int, status: String, message: String, data: JSONValue) {
        self.guid = guid
        self.code = code
        self.status = status
        self.message = message
        self.data = data
    }

    /// A response to `guid` carrying `reply`.
    public init(guid: String?, reply: BridgeReply) {
        self.init(
            guid: guid, code: reply.code, status: reply.status ?? Self.status(for: reply.code),
            message: reply.message, data: reply.data)
    }

    /// A failure response.
    public init(guid: String?, error: BridgeError) {
        self.init(guid: guid, code: error.code.rawValue, status: "Failure", message: error.message, data: .null)
    }

    /// `Success` for 2xx codes, `Failure` otherwise.
    public static func status(for code: Int) -> String {
        (200..<300).contains(code) ? "Success" : "Failure"
    }

    /// Appends the line (without its newline) to `bytes`.
    public func write(to bytes: inout [UInt8]) {
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
public struct BridgeEvent: Sendable, Equatable {
    /// The event name, e.g. `slideChanged`.
    public var name: String
    /// Its details.
    public var data: JSONValue

    /// Creates an event.
    public init(_ name: String, _ data: JSONValue) {
        self.name = name
        self.data = data
    }

    /// Appends the line (without its newline) to `bytes`.
    public func write(to bytes: inout [UInt8]) {
        bytes.append(contentsOf: #"{"Event":"#.utf8)
        JSONWriter.write(name, to: &bytes)
        bytes.append(contentsOf: #","Data":"#.utf8)
        JSONWriter.write(data, to: &bytes)
        bytes.append(UInt8(ascii: "}"))
    }
}
