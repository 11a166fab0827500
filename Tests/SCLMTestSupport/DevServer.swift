import Foundation
import SCLMCore
import SCLMHTTP

/// The project's development backend (`dev-server/server.py`, see the dev-server contract) running on
/// loopback for one test, with its control and statistics endpoints.
///
/// ```swift
/// let server = try DevServer(["--synthetic-clients", "1", "--synthetic-presentations", "50"])
/// try await server.control(["action": "fail", "status": 503, "count": 2])
/// #expect(try await server.stats().count("GET /v1/clients") == 1)
/// ```
package final class DevServer: Sendable {
    /// Demo credentials the server accepts.
    package static let clientId = "sclm-demo"
    package static let clientSecret = "demo-secret"
    package static let username = "demo@storyclm.test"
    package static let password = "demo-pass"

    /// The server's request counters (`GET /_control/stats`).
    package struct Stats: Sendable {
        /// Requests per `METHOD /path` (token requests as `POST /connect/token <grant>`).
        package let requests: [String: Int]
        /// Blob body bytes sent in all.
        package let totalBlobBytes: Int64
        /// The whole answer (`statuses`, `sessionCookies`, …).
        package let raw: JSONValue

        /// Requests counted under exactly `key`.
        package func count(_ key: String) -> Int { requests[key] ?? 0 }

        /// Requests whose key starts with `prefix`.
        package func count(prefix: String) -> Int {
            requests.filter { $0.key.hasPrefix(prefix) }.values.reduce(0, +)
        }
    }

    private let server: ServerProcess
    private let transport = CurlTransport()

    /// The base URL (also the auth URL).
    package var url: URL { server.url }

    /// What the server logged to stderr so far.
    package var log: String { server.log }

    /// Starts `python3 dev-server/server.py --port 0 ARGUMENTS…`.
    ///
    /// - Throws: `SCLMError` when it does not start.
    package init(_ arguments: [String] = []) throws {
        server = try ServerProcess(
            script: "dev-server/server.py", arguments: ["--port", "0", "--exit-with-parent"] + arguments)
    }

    /// Starts a server like ``init(_:)`` on a thread of its own, so waiting for Python to start (a second or
    /// more on a busy machine) never holds a thread of the cooperative pool other tests run on.
    ///
    /// - Throws: `SCLMError` when it does not start.
    package static func start(_ arguments: [String] = []) async throws -> DevServer {
        try await withCheckedThrowingContinuation { continuation in
            Thread { continuation.resume(with: Result { try DevServer(arguments) }) }.start()
        }
    }

    /// The environment that points `sclm` at this server with the demo client.
    package var environment: [String: String] {
        [
            "SCLM_API_URL": url.absoluteString, "SCLM_AUTH_URL": url.absoluteString,
            "SCLM_CLIENT_ID": DevServer.clientId, "SCLM_CLIENT_SECRET": DevServer.clientSecret,
        ]
    }

    /// Sends one control action (`POST /_control`).
    ///
    /// - Throws: `SCLMError` when the server does not answer `{"ok":true}`.
    package func control(_ action: JSONValue) async throws {
        var request = HTTPRequest(.post, url: url.appending(path: "_control"), body: action.encoded())
        request.headers.set(name: "Content-Type", value: "application/json")
        let response = try await transport.send(request)
        guard response.isSuccess else {
            throw SCLMError(.internal, "control \(action.jsonString) failed: HTTP \(response.status)")
        }
    }

    /// The request counters (`GET /_control/stats`).
    ///
    /// - Throws: `SCLMError` for an unexpected answer.
    package func stats() async throws -> Stats {
        let response = try await transport.send(HTTPRequest(url: url.appending(path: "_control/stats")))
        let object = try JSONValue.parse(response.body)
        var requests: [String: Int] = [:]
        for (key, value) in object["requests"]?.objectValue ?? [:] { requests[key] = Int(value.intValue ?? 0) }
        return Stats(requests: requests, totalBlobBytes: object["totalBlobBytes"]?.intValue ?? 0, raw: object)
    }

    /// A fresh access token for the demo client (client credentials), for direct API calls.
    ///
    /// - Throws: `SCLMError` for an unexpected answer.
    package func accessToken() async throws -> String {
        let form =
            "grant_type=client_credentials&client_id=\(DevServer.clientId)&client_secret=\(DevServer.clientSecret)"
        let request = HTTPRequest(
            .post, url: url.appending(path: "connect/token"),
            headers: ["Content-Type": "application/x-www-form-urlencoded"], body: Data(form.utf8))
        let response = try await transport.send(request)
        guard let token = try JSONValue.parse(response.body)["access_token"]?.stringValue else {
            throw SCLMError(.internal, "no token from the dev-server: HTTP \(response.status)")
        }
        return token
    }

    /// The signed download URL (`sas`) and size of a presentation's package.
    ///
    /// - Throws: `SCLMError` for an unexpected answer.
    package func package(of presentationId: Int64) async throws -> (url: URL, size: Int64) {
        let request = HTTPRequest(
            url: url.appending(path: "v1/contentpackages/\(presentationId)"),
            headers: ["Authorization": "Bearer \(try await accessToken())"])
        let object = try JSONValue.parse(try await transport.send(request).body)
        guard let sas = object["sas"]?.stringValue.flatMap(URL.init(string:)), let size = object["fileSize"]?.intValue
        else {
            throw SCLMError(.internal, "no package for presentation \(presentationId) on the dev-server")
        }
        return (sas, size)
    }

    /// Stops the server.
    package func stop() { server.stop() }
}
