import Foundation

extension HTTPRequest {
    /// The statuses whose `Location` a transport follows.
    static let redirectStatuses: Set<Int> = [301, 302, 303, 307, 308]

    /// The request to send after `status` redirected this one to `location`, as libcurl builds it when it
    /// follows redirects itself (curl_easy_setopt(3), `CURLOPT_FOLLOWLOCATION` and `CURLOPT_POSTREDIR`).
    ///
    /// A POST answered 301, 302 or 303 becomes a GET without a body; other methods and statuses repeat the
    /// method and body. `Authorization` and `Cookie` headers are dropped when the scheme, host or port
    /// changes, as libcurl does since 7.83, so a redirect cannot carry credentials to another server (the
    /// cookie store still sends the new host its own cookies).
    package func redirected(to location: URL, status: Int) -> HTTPRequest {
        var next = self
        next.url = location
        if method == .post, [301, 302, 303].contains(status) {
            next.method = .get
            next.body = nil
            next.headers = HTTPHeaders(headers.fields.filter { !HTTPHeaders.same($0.name, "Content-Type") })
        }
        if !Self.sameOrigin(url, location) {
            next.headers = HTTPHeaders(
                next.headers.fields.filter {
                    !HTTPHeaders.same($0.name, "Authorization") && !HTTPHeaders.same($0.name, "Cookie")
                })
        }
        return next
    }

    /// Whether two URLs have the same scheme, host and port (the default port when none is written).
    private static func sameOrigin(_ lhs: URL, _ rhs: URL) -> Bool {
        func origin(_ url: URL) -> (String, String, Int) {
            let scheme = url.scheme?.lowercased() ?? ""
            return (
                scheme, url.host(percentEncoded: false)?.lowercased() ?? "", url.port ?? (scheme == "https" ? 443 : 80)
            )
        }
        return origin(lhs) == origin(rhs)
    }
}
