import Foundation
import SCLMBridge
import SCLMCore
import SCLMHTTP

/// HTTP: `httpget`, `httppost`, `httpput`, `httpdelete` for content (storyclm.js `StoryCLM.Http`).
///
/// `Data` in is `{url, headers?, body?}` with a base64 body; `Data` out is `{headers, body}` with a base64
/// body, the real status as `ErrorCode` and its reason phrase as `Status` (`"no error"` for 200,
/// `"created"` for 201, as StoryContent iOS answers). Only http and https URLs, bounded request and
/// response sizes and a time limit, and a ``NetworkRule`` from `bridge.httpAllowedHosts`: without it public
/// hosts only, with it only what it lists. The module refuses a URL the rule refuses before sending; the
/// transport, configured with the same rule, checks every redirect hop and every address it connects to.
/// Requests run concurrently (no lane) through the module's own libcurl transport.
package struct HTTPModule: DeclaredBridgeModule {
    /// The bounds of content's HTTP requests.
    package struct Policy: Sendable, Equatable {
        /// Where content may send requests.
        package var rule: NetworkRule
        /// The longest a request may take; below the bridge's default 30 s, so content gets the HTTP
        /// failure rather than a 504.
        package var timeout: Duration = .seconds(25)
        /// The largest request body after base64 decoding.
        package var maximumRequestBytes = 16 << 20
        /// The largest response body (it travels base64-encoded in one line).
        package var maximumResponseBytes = 16 << 20

        /// A policy with `rule` (by default public hosts only).
        package init(rule: NetworkRule = .publicOnly) {
            self.rule = rule
        }

        /// The policy the configuration asks for: the rule of `bridge.httpAllowedHosts`.
        ///
        /// - Throws: `SCLMError` (`.usage`) naming an entry of the list that cannot be parsed.
        package init(configuration: Configuration) throws {
            self.init(rule: try configuration.value(.bridgeHTTPAllowedHosts) ?? .publicOnly)
        }
    }

    package let name = "HTTP"
    package static let declarations: BridgeCommandDeclarations<Self> = [
        .send("httpget", .get), .send("httppost", .post), .send("httpput", .put), .send("httpdelete", .delete),
    ]
    let transport: any HTTPTransport
    let policy: Policy

    /// Creates the module over `transport`.
    package init(transport: any HTTPTransport, policy: Policy = Policy()) {
        self.transport = transport
        self.policy = policy
    }

    /// `{url, headers, body}`.
    struct Parameters: Decodable {
        let url: String
        let headers: [String: LenientString]?
        let body: String?
    }

    /// Sends `parameters` with `method` and answers the response as it came.
    func send(_ method: HTTPMethod, _ parameters: Parameters) async throws -> BridgeReply {
        let http = try makeRequest(method, from: parameters)
        let response: HTTPResponse
        do {
            response = try await transport.send(http)
        } catch let error as HTTPError {
            throw bridgeError(for: error, request: http)
        }
        return BridgeReply(
            data: [
                "headers": .object(Self.headerObject(response.headers)),
                "body": .string(response.body.base64EncodedString()),
            ],
            code: response.status, status: Self.reasonPhrase(for: response.status))
    }

    /// Checks the parameters against the policy and builds the request.
    func makeRequest(_ method: HTTPMethod, from parameters: Parameters) throws -> HTTPRequest {
        guard let url = URL(string: parameters.url.trimmingCharacters(in: .whitespaces)),
            let scheme = url.scheme?.lowercased(), scheme == "http" || scheme == "https", let host = url.host,
            !host.isEmpty
        else {
            throw BridgeError(
                .badRequest, "url must be an absolute http or https URL, got '\(parameters.url.prefix(80))'")
        }
        guard policy.rule.admission(for: url) != nil else { throw refusal(of: url.hostDescription) }
        var headers = HTTPHeaders()
        for (name, value) in parameters.headers ?? [:] {
            let hasControls = value.value.unicodeScalars.contains { $0.value < 0x20 && $0 != "\t" }
            guard HTTPHeaders.isToken(name), !hasControls else {
                throw BridgeError(
                    .badRequest,
                    "invalid header '\(name.prefix(40))': names are tokens, values have no line breaks or control characters"
                )
            }
            headers.set(name: name, value: value.value)
        }
        var body: Data?
        if method == .post || method == .put, let text = parameters.body, !text.isEmpty {
            guard let decoded = Data(base64Encoded: text, options: .ignoreUnknownCharacters) else {
                throw BridgeError(.badRequest, "body must be base64 (window.btoa), as storyclm.js sends it")
            }
            guard decoded.count <= policy.maximumRequestBytes else {
                throw BridgeError(
                    .badRequest, "body of \(decoded.count) bytes exceeds the limit of \(policy.maximumRequestBytes)")
            }
            body = decoded
        }
        return HTTPRequest(
            method, url: url, headers: headers, body: body, timeout: policy.timeout,
            maxResponseBytes: policy.maximumResponseBytes)
    }

    /// The code content sees when no HTTP response arrived.
    func bridgeError(for error: HTTPError, request: HTTPRequest) -> BridgeError {
        switch error.code {
        case .timedOut: BridgeError(.timeout, "\(request.summary) timed out: \(error.description)")
        case .unsupportedScheme, .invalidURL, .unsafeHeader: BridgeError(.badRequest, error.description)
        case .destinationRefused: refusal(of: error.detail ?? error.url.hostDescription)
        default: BridgeError(.badGateway, error.description)
        }
    }

    /// The 403 for a destination the rule refuses, naming the setting that would allow it.
    func refusal(of destination: String) -> BridgeError {
        let rule =
            policy.rule.entries == nil
            ? "without bridge.httpAllowedHosts content reaches public hosts only, never loopback, private,"
                + " link-local or unspecified addresses"
            : "it is not in bridge.httpAllowedHosts"
        return BridgeError(
            .forbidden, "\(destination) is refused: \(rule); allow it with `sclm config set bridge.httpAllowedHosts …`")
    }

    /// Response headers as one object; repeated fields are joined with `, `.
    static func headerObject(_ headers: HTTPHeaders) -> [String: JSONValue] {
        var object: [String: String] = [:]
        for field in headers {
            object[field.name] = object[field.name].map { $0 + ", " + field.value } ?? field.value
        }
        return object.mapValues { .string($0) }
    }

    /// The reason phrase StoryContent iOS puts in `Status` (`NSHTTPURLResponse.localizedString`).
    static func reasonPhrase(for status: Int) -> String {
        switch status {
        case 200: "no error"
        case 201: "created"
        case 202: "accepted"
        case 204: "no content"
        case 206: "partial content"
        case 301: "moved permanently"
        case 302: "found"
        case 304: "not modified"
        case 400: "bad request"
        case 401: "unauthorized"
        case 403: "forbidden"
        case 404: "not found"
        case 405: "method not allowed"
        case 408: "request timed out"
        case 409: "conflict"
        case 410: "no longer exists"
        case 413: "request too large"
        case 429: "too many requests"
        case 500: "internal server error"
        case 501: "unimplemented"
        case 502: "bad gateway"
        case 503: "service unavailable"
        case 504: "gateway timed out"
        case 200..<300: "success"
        case 300..<400: "redirected"
        case 400..<500: "client error"
        default: "server error"
        }
    }
}

extension BridgeCommandDeclaration where Module == HTTPModule {
    /// The command sending its `{url, headers, body}` with `method`.
    fileprivate static func send(_ name: String, _ method: HTTPMethod) -> Self {
        .deferred(name, parameters: HTTPModule.Parameters.self) { module, parameters, _ in
            try await module.send(method, parameters)
        }
    }
}
