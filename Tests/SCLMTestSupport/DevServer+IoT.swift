import Foundation
import SCLMCore
import SCLMHTTP

extension DevServer {
    /// The demo StoryIoT hub, key and secret the server accepts.
    package static let iotHub = "sclm-demo-hub"
    package static let iotKey = "demo-iot-key"
    package static let iotSecret = "demo-iot-secret"

    /// What the StoryIoT endpoint received (`GET /_control/iot`).
    package struct IoTReceived: Sendable {
        /// One stored message.
        package struct Message: Sendable {
            /// Its `s-m-*` headers (lower-case names).
            package let headers: [String: String]
            /// Its JSON body.
            package let body: JSONValue
        }

        /// Stored messages, one per entity id, in arrival order.
        package let messages: [Message]
        /// Repeats of a stored entity id with the same body.
        package let duplicates: Int
        /// Repeats of a stored entity id with another body (replaced in place).
        package let updates: Int
        /// Publishes refused (signature, size, JSON).
        package let rejected: Int
        /// Publishes failed on purpose (`iotFail`).
        package let failed: Int

        /// The stored messages by entity id (`s-m-id`).
        package var byEntity: [String: Message] {
            Dictionary(messages.map { ($0.headers["s-m-id"] ?? "", $0) }) { first, _ in first }
        }
    }

    /// The environment that points `sclm events flush` at this server's StoryIoT hub.
    package var iotEnvironment: [String: String] {
        [
            "SCLM_IOT_ENDPOINT": url.absoluteString, "SCLM_IOT_HUB": DevServer.iotHub,
            "SCLM_IOT_KEY": DevServer.iotKey, "SCLM_IOT_SECRET": DevServer.iotSecret,
        ]
    }

    /// What the StoryIoT endpoint received so far.
    ///
    /// - Throws: `SCLMError` for an unexpected answer.
    package func iotReceived() async throws -> IoTReceived {
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
