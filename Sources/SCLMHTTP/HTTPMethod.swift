/// An HTTP request method.
///
/// ``isIdempotent`` decides whether ``RetryPolicy`` may repeat a request after a failure that could have
/// happened after the server acted on it.
public struct HTTPMethod: RawRepresentable, Sendable, Hashable, CustomStringConvertible {
    public let rawValue: String

    /// Creates a method from its token (`GET`, `POST`, …).
    public init(rawValue: String) { self.rawValue = rawValue.uppercased() }

    public static let get = HTTPMethod(rawValue: "GET")
    public static let head = HTTPMethod(rawValue: "HEAD")
    public static let post = HTTPMethod(rawValue: "POST")
    public static let put = HTTPMethod(rawValue: "PUT")
    public static let delete = HTTPMethod(rawValue: "DELETE")
    public static let options = HTTPMethod(rawValue: "OPTIONS")

    /// Whether repeating the request has the same effect as sending it once (RFC 9110 §9.2.2).
    public var isIdempotent: Bool { [.get, .head, .put, .delete, .options].contains(self) }

    public var description: String { rawValue }
}
