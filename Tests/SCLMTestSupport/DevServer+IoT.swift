import Foundation
import SCLMCore
import SCLMHTTP

extension DevServer {
    /// The demo StoryIoT hub, key and secret the server accepts.
    public static let iotHub = "sclm-demo-hub"
    public static let iotKey = "demo-iot-key"
    public static let iotSecret = "demo-iot-secret"

    /// What the StoryIoT endpoint received (`GET /_control/iot`).
    public struct IoTReceived: Sendable {
        /// One stored message.
        public struct Message: Sendable {
            /// Its `s-m-*` headers (lower-case names).
            public let headers: [String: String]
            /// Its JSON body.
            public let body: JSONValue
        }

        /// Stored messages, one per entity id, in arrival order.
        public let messages: [Message]
        /// Repeats of a stored entity id with the same body.
        public let duplicates: Int
        /// Repeats of a stored entity id with another body (replaced in place).
        public let updates: Int
        /// Publishes refused (signature, size, JSON).
        public let rejected: Int
        /// Publishes failed on purpose (`iotFail`).
        public let failed: Int

        /// The stored messages by entity id (`s-m-id`).
        public var byEntity: [String: Message] {
            Dictionary(messages.map { ($0.headers["s-m-id"] ?? "", $0) }) { first, _ in first }
        }
    }

    /// The environment that points `sclm events flush` at this server's StoryIoT hub.
    public var iotEnvironment: [String: String] {
        [
            "SCLM_IOT_ENDPOINT": url.absoluteString, "SCLM_IOT_HUB": DevServer.iotHub,
            "SCLM_IOT_KEY": DevServer.iotKey, "SCLM_IOT_SECRET": DevServer.iotSecret,
        ]
    }

    /// What the StoryIoT endpoint received so far.
    ///
    /// - Throws: `SCLMError` for an unexpected answer.
    public func iotReceived() async throws -> IoTReceived {
        let response = try await CurlTransport().send(HTTPRequest(url: url.appending(path: "_control/iot")))
        let object = try JSONValue.parse(response.body)
        let messages = (object["messages"]?.arrayValue ?? []).map { message in
            IoTReceived.Message(
                headers: (message["headers"]?.objectValue ?? [:]).compactMapValues(\.stringValue),
                body: message["body"] ?? .null)
        }
        func count(_ key: String) -> Int { Int(object[key]?.intValue ?? 0) }
        return IoTReceived(
            messages: messages, duplicates: count("duplicates"), updates: count("updates"), rejected: count("rejected"),
            failed: count("failed"))
    }
}
