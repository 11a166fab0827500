import Foundation
import SCLMBrowser
import SCLMHTTP

/// A response's header block as libcurl hands it over, line by line (`HTTPHeader.line`), then what sclm
/// reads from it: `Content-Range`, `Retry-After`, the redirect target (`Location`, through the redirect
/// rules and the network allowlist) and, as the package site reads a page's request, `Range`.
enum HTTPHeadersTarget {
    /// Where the response came from: a redirect is resolved against it.
    private static let origin = URL(string: "https://cdn.example.com/content/package.zip")
    private static let now = Date(timeIntervalSince1970: 1_800_000_000)

    static func fuzz(_ bytes: [UInt8]) {
        var fields: [HTTPHeader] = []
        for line in bytes.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false) {
            switch Array(line).withUnsafeBytes(HTTPHeader.line) {
            case .statusLine: fields = []
            case .field(let field): fields.append(field)
            case .ignored: break
            }
        }
        let headers = HTTPHeaders(fields)
        _ = ContentRange(headers["Content-Range"])
        if let retryAfter = headers["Retry-After"] { _ = RetryAfter.parse(retryAfter, now: now) }
        if let origin, let location = headers["Location"], let target = URL(string: location, relativeTo: origin) {
            let request = HTTPRequest(.post, url: origin, headers: headers)
            for status in [301, 307] { _ = request.redirected(to: target.absoluteURL, status: status) }
            _ = NetworkRule.publicOnly.admission(for: target.absoluteURL)
        }
        if let range = headers["Range"] {
            let size = max(0, headers["Content-Length"].flatMap { Int64($0) } ?? 1000)
            _ = ByteRange.resolve(range, size: size, maximumChunk: 1 << 20)
        }
    }
}
