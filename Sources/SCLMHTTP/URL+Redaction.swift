import Foundation

extension URL {
    /// `host:port` (the port only when the URL names one), for messages that must say which server failed.
    package var hostDescription: String {
        guard let host = host(percentEncoded: false), !host.isEmpty else { return "(no host)" }
        let shown = host.contains(":") ? "[\(host)]" : host
        return port.map { "\(shown):\($0)" } ?? shown
    }

    /// `host:port/path` without scheme, user info, query or fragment: safe to log and show, since
    /// SAS signatures and tokens only ever travel in the query string or in headers.
    package var redactedDescription: String {
        hostDescription + path(percentEncoded: true)
    }

    /// Whether the scheme is http or https, the only ones sclm speaks.
    package var isHTTP: Bool {
        guard let scheme = scheme?.lowercased() else { return false }
        return (scheme == "http" || scheme == "https") && host(percentEncoded: false)?.isEmpty == false
    }
}
