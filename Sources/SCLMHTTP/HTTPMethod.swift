/// An HTTP request method.
///
/// ``isIdempotent`` decides whether ``RetryPolicy`` may repeat a request after a failure that could have
/// happened after the server acted on it.
package struct HTTPMethod: RawRepresentable, Sendable, Hashable, CustomStringConvertible {
    package let rawValue: String

    /// Creates a method from its token (`GET`, `POST`, …).
    package init(rawValue: String) { self.rawValue = rawValue.uppercased() }

    package static let get = HTTPMethod(rawValue: "GET")
    package static let head = HTTPMethod(rawValue: "HEAD")
    package static let post = HTTPMethod(rawValue: "POST")
    package static let put = HTTPMethod(rawValue: "PUT")
    package static let delete = HTTPMethod(rawValue: "DELETE")
    package static let options = HTTPMethod(rawValue: "OPTIONS")

    /// Whether repeating the request has the same effect as sending it once (RFC 9110 §9.2.2).
    package var isIdempotent: Bool { [.get, .head, .put, .delete, .options].contains(self) }

    package var description: String { rawValue }
}
