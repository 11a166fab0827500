import Foundation
import SCLMCore

/// A failed HTTP exchange: the server could not be reached, the connection broke, or it answered with
/// an error status.
///
/// The message names the method, host and path that failed and what to do; it never contains the query
/// string (where SAS signatures live), header values or bodies.
package struct HTTPError: CategorizedError, Equatable {
    /// The class of failure. New kinds may be added; do not switch exhaustively.
    package struct Code: Hashable, Sendable, CustomStringConvertible {
        private enum Base: String, Hashable, Sendable {
            case offline, connectFailed, timedOut, tls, connectionLost, status, tooManyRedirects, unsupportedScheme
            case budgetExceeded, badResponse, invalidURL, transport, destinationRefused, unsafeHeader
        }
        private let base: Base

        /// The host name could not be resolved (offline, DNS).
        package static let offline = Code(base: .offline)
        /// No connection could be opened (refused, unreachable).
        package static let connectFailed = Code(base: .connectFailed)
        /// The connect timeout, the stall limit or the request's total timeout ran out.
        package static let timedOut = Code(base: .timedOut)
        /// TLS could not be established or the certificate was not trusted.
        package static let tls = Code(base: .tls)
        /// The connection broke before the response was complete.
        package static let connectionLost = Code(base: .connectionLost)
        /// The server answered with an error status (see ``HTTPError/status``).
        package static let status = Code(base: .status)
        /// More redirects than allowed.
        package static let tooManyRedirects = Code(base: .tooManyRedirects)
        /// A URL or a redirect that is not http/https.
        package static let unsupportedScheme = Code(base: .unsupportedScheme)
        /// The response was larger than the caller allowed.
        package static let budgetExceeded = Code(base: .budgetExceeded)
        /// The response could not be understood (bad framing, encoding, range or JSON).
        package static let badResponse = Code(base: .badResponse)
        /// The URL is malformed.
        package static let invalidURL = Code(base: .invalidURL)
        /// Another libcurl failure.
        package static let transport = Code(base: .transport)
        /// A hop or a connection went where the transport's ``NetworkRule`` does not allow.
        package static let destinationRefused = Code(base: .destinationRefused)
        /// A header name is not a token, or its value holds CR, LF or NUL (it would forge header lines).
        package static let unsafeHeader = Code(base: .unsafeHeader)

        package var description: String { base.rawValue }
    }

    /// The class of failure.
    package let code: Code
    /// The method of the failed request.
    package let method: HTTPMethod
    /// The URL of the failed request (shown only through ``Foundation/URL/redactedDescription``).
    package let url: URL
    /// The HTTP status, for ``Code/status``.
    package let status: Int?
    /// The delay the server asked for with `Retry-After`.
    package let retryAfter: Duration?
    /// A short, redacted detail (libcurl's message, a server error code).
    package let detail: String?
    /// The libcurl code, when libcurl reported the failure.
    package let curlCode: CurlCode?

    /// Creates an error.
    package init(
        _ code: Code, method: HTTPMethod, url: URL, status: Int? = nil, retryAfter: Duration? = nil,
        detail: String? = nil, curlCode: CurlCode? = nil
    ) {
        self.code = code
        self.method = method
        self.url = url
        self.status = status
        self.retryAfter = retryAfter
        self.detail = detail.map(HTTPError.redact)
        self.curlCode = curlCode
    }

    /// An error for a response with a non-success status.
    package init(response: HTTPResponse, method: HTTPMethod, now: Date = Date()) {
        self.init(
            .status, method: method, url: response.url, status: response.status,
            retryAfter: response.retryAfter(now: now), detail: response.serverReason)
    }

    package var category: ErrorCategory {
        switch code {
        case .invalidURL: return .usage
        case .destinationRefused: return .policy
        case .unsafeHeader: return .internal
        case .status:
            switch status ?? 0 {
            case 401, 403: return .auth
            case 404, 410: return .notFound
            case 408, 429, 503: return .temporary
            default: return .network
            }
        default: return .network
        }
    }

    package var description: String {
        let (what, advice) = parts
        return code == .status ? "\(what): \(advice)" : "\(what); \(advice)"
    }

    /// What failed, without the advice: for log lines that go on to say what sclm does about it.
    package var summary: String { parts.what }

    private var parts: (what: String, advice: String) {
        let target = "\(method) \(url.redactedDescription)"
        let host = url.hostDescription
        let because = detail.map { " (\($0))" } ?? ""
        switch code {
        case .offline:
            return ("cannot resolve host \(host)\(because)", "check the network connection and the configured URL")
        case .connectFailed:
            return (
                "cannot connect to \(host)\(because)",
                "check that the server is running and reachable (and the proxy settings, if any)"
            )
        case .timedOut:
            return ("\(target) timed out\(because)", "check the network and retry")
        case .tls:
            return (
                "secure connection to \(host) failed\(because)",
                "check the server certificate, or point http.caBundle (SCLM_CA_BUNDLE) at the CA that signed it"
            )
        case .connectionLost:
            return ("connection to \(host) broke during \(target)\(because)", "retry")
        case .status:
            return ("\(target) answered HTTP \(status ?? 0)\(detail.map { ", \($0)" } ?? "")", statusAdvice)
        case .tooManyRedirects:
            return ("\(target) redirected too many times", "check the configured URL")
        case .unsupportedScheme:
            return ("\(target) led to a URL that is not http or https", "sclm refuses it; check the configured URL")
        case .budgetExceeded:
            return ("\(target) sent more data than expected\(because)", "the response was refused")
        case .badResponse:
            return ("\(target) sent a malformed response\(because)", "retry, and report it if it persists")
        case .invalidURL:
            return ("'\(url.redactedDescription)' is not a valid http or https URL", "check the configuration")
        case .destinationRefused:
            return ("\(target) was refused\(because)", "the network rule does not allow that destination")
        case .unsafeHeader:
            return ("\(target) was not sent\(because)", "a header value must not hold CR, LF or NUL")
        default:
            return ("\(target) failed\(because)", "retry, and report it if it persists")
        }
    }

    private var statusAdvice: String {
        let wait = retryAfter.map { " (the server asked to wait \($0.components.seconds) s)" } ?? ""
        switch status ?? 0 {
        case 401: return "the credentials were not accepted; run `sclm login`"
        case 403: return "access was denied; check that this account may access it"
        case 404, 410: return "it does not exist on the server"
        case 408, 429: return "the server is busy; retry later\(wait)"
        case 503: return "the service is temporarily unavailable; retry later\(wait)"
        case 500..<600: return "the server failed; retry later\(wait)"
        default: return "the server refused the request"
        }
    }

    /// Removes query strings from URLs that libcurl messages may contain.
    static func redact(_ text: String) -> String {
        var result = ""
        var skipping = false
        for character in text {
            if character == "?" { skipping = true }
            if skipping, character.isWhitespace || character == "'" || character == "\"" { skipping = false }
            if !skipping { result.append(character) }
        }
        return result
    }
}
