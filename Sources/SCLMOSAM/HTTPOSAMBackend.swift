import Foundation
import SCLMCore
import SCLMHTTP
import SCLMPolicy

/// The OSAM backend over HTTP: `GET {endpoint}/api/version/…` and `GET {endpoint}/api/rating/…`.
///
/// The endpoint's full base URL is used, path prefix and port included (OSAM itself keeps only scheme and
/// host, quirk Q8). `Authorization: Basic` is sent only when credentials are configured (OSAM hard-codes
/// `osam:osam`). Requests have short timeouts; any failure becomes ``FetchResult/failed(_:)`` with a
/// one-line reason that names the request without its query.
package struct HTTPOSAMBackend: OSAMBackend {
    /// HTTP Basic credentials.
    package struct Credentials: Sendable, Equatable {
        /// The user.
        package var username: String
        /// The password.
        package var password: String

        /// Creates credentials.
        package init(username: String, password: String) {
            self.username = username
            self.password = password
        }

        /// The `Authorization` header value.
        var header: String { "Basic " + Data("\(username):\(password)".utf8).base64EncodedString() }
    }

    /// The limit on one record fetch.
    package static let fetchTimeout: Duration = .seconds(10)
    /// The limit on the reachability probe.
    package static let probeTimeout: Duration = .seconds(3)
    /// The largest record accepted.
    static let maxRecordBytes = 1 << 20

    private let endpoint: URL
    private let credentials: Credentials?
    private let transport: any HTTPTransport

    /// Creates a backend at `endpoint`.
    package init(endpoint: URL, credentials: Credentials?, transport: any HTTPTransport) {
        self.endpoint = endpoint
        self.credentials = credentials
        self.transport = transport
    }

    package func version(package packageName: String, platform: Platform, versionCode: Int64, deviceNow: Int64)
        async throws
        -> FetchResult<VersionRecord>
    {
        try await fetch(["api", "version", packageName, platform.rawValue, String(versionCode)]) {
            json throws(ResponseError) in
            try VersionRecord(json: json, deviceNow: deviceNow)
        }
    }

    package func rating(package packageName: String, platform: Platform) async throws -> FetchResult<RatingRecord> {
        try await fetch(["api", "rating", packageName, platform.rawValue]) { json throws(ResponseError) in
            try RatingRecord(json: json)
        }
    }

    /// A `HEAD` of the endpoint: any HTTP answer, whatever its status, means reachable.
    package func isOnline() async -> Bool {
        do {
            _ = try await transport.send(request(.head, url: endpoint, timeout: HTTPOSAMBackend.probeTimeout))
            return true
        } catch {
            return false
        }
    }

    /// The URL of `segments` below the endpoint, each segment percent-encoded.
    func url(_ segments: [String]) -> URL {
        segments.reduce(endpoint) { url, segment in url.appending(component: segment) }
    }

    private func fetch<Record>(
        _ segments: [String], decode: (JSONValue) throws(ResponseError) -> Record
    ) async throws -> FetchResult<Record> {
        let request = request(.get, url: url(segments), timeout: HTTPOSAMBackend.fetchTimeout)
        let response: HTTPResponse
        do {
            response = try await transport.send(request)
        } catch is CancellationError {
            throw CancellationError()
        } catch {
            return .failed(error.userMessage)
        }
        guard response.isSuccess else {
            let hint =
                response.status == 401 || response.status == 403 ? " (check osam.username and osam.password)" : ""
            return .failed("\(request.summary) answered HTTP \(response.status)\(hint)")
        }
        do {
            return .fetched(try decode(try JSONValue.parse(response.body)))
        } catch {
            return .failed("\(request.summary): \(error.userMessage)")
        }
    }

    private func request(_ method: HTTPMethod, url: URL, timeout: Duration) -> HTTPRequest {
        var request = HTTPRequest(method, url: url, timeout: timeout, maxResponseBytes: HTTPOSAMBackend.maxRecordBytes)
        request.headers.set(name: "Accept", value: "application/json")
        if let credentials { request.headers.set(name: "Authorization", value: credentials.header) }
        return request
    }
}

extension HTTPOSAMBackend {
    /// A notifier that POSTs each subscription change as JSON to `webhook` and fails unless it answers 2xx.
    package static func webhookNotifier(_ webhook: URL, transport: any HTTPTransport) -> SubscriptionNotifier {
        { change in
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.sortedKeys]
            var request = HTTPRequest(.post, url: webhook, body: try encoder.encode(change), timeout: fetchTimeout)
            request.headers.set(name: "Content-Type", value: "application/json")
            let response = try await transport.send(request)
            guard response.isSuccess else { throw HTTPError(response: response, method: .post) }
        }
    }
}
