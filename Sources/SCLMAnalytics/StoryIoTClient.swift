import Foundation
import SCLMCore
import SCLMHTTP

/// Sends StoryIoT messages: one signed `POST {endpoint}/{hub}/publish/` per message.
package struct StoryIoTClient: Sendable {
    /// Where to publish.
    package let credentials: StoryIoTCredentials
    private let transport: any HTTPTransport
    private let clock: any WallClock
    private let timeout: Duration

    /// Creates a client.
    ///
    /// - Parameters:
    ///   - credentials: the hub, key and secret that sign each request.
    ///   - transport: the HTTP transport.
    ///   - clock: the clock of the signature's expiry.
    ///   - timeout: the limit on one publish exchange.
    package init(
        credentials: StoryIoTCredentials, transport: any HTTPTransport, clock: any WallClock, timeout: Duration
    ) {
        self.credentials = credentials
        self.transport = transport
        self.clock = clock
        self.timeout = timeout
    }

    /// Publishes `message` once, signed afresh (so a retry after a pause is not sent expired).
    ///
    /// - Throws: ``HTTPError`` for a transport failure or a non-2xx answer (`.status`), `CancellationError`.
    package func publish(_ message: StoryIoTMessage) async throws {
        var headers = message.headers
        headers.set(name: "Content-Type", value: "application/json")
        let request = HTTPRequest(
            .post, url: credentials.publishURL(now: clock.now), headers: headers, body: message.body, timeout: timeout,
            maxResponseBytes: 1 << 20)
        let response = try await transport.send(request)
        guard response.isSuccess else { throw HTTPError(response: response, method: .post, now: clock.now) }
    }
}
