import SCLMCore

/// A failure answered to content with an HTTP-like `ErrorCode` (docs/bridge.md).
///
/// Handlers throw it to choose the code; any other error is mapped through its ``ErrorCategory``
/// (``Code/init(for:)``), so modules never need to know the protocol's numbers for store or network
/// failures.
package struct BridgeError: CategorizedError, Equatable {
    /// The protocol code of a failure, as sent in `ErrorCode`.
    package struct Code: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
        package let rawValue: Int
        package init(rawValue: Int) { self.rawValue = rawValue }

        /// Malformed JSON, a bad envelope, a bad GUID or bad `Data`.
        package static let badRequest = Code(rawValue: 400)
        /// The content is not allowed to do this (a refused host, a file outside the presentation).
        package static let forbidden = Code(rawValue: 403)
        /// Unknown command, or the thing asked for does not exist.
        package static let notFound = Code(rawValue: 404)
        /// The GUID is already in flight.
        package static let conflict = Code(rawValue: 409)
        /// The line exceeded the size limit.
        package static let payloadTooLarge = Code(rawValue: 413)
        /// Too many requests in flight.
        package static let tooManyRequests = Code(rawValue: 429)
        /// Cancelled with `bridge.cancel`.
        package static let cancelled = Code(rawValue: 499)
        /// The handler failed.
        package static let internalError = Code(rawValue: 500)
        /// An external module crashed or answered nonsense.
        package static let badGateway = Code(rawValue: 502)
        /// The host is shutting down (stdin closed) or a module is unavailable.
        package static let unavailable = Code(rawValue: 503)
        /// The command exceeded its timeout.
        package static let timeout = Code(rawValue: 504)

        /// The code for any error: its own for a ``BridgeError``, 499 for cancellation, else by category.
        package init(for error: any Error) {
            switch error {
            case let error as BridgeError: self = error.code
            case is CancellationError: self = .cancelled
            default: self = Code(category: error.category)
            }
        }

        /// The code that stands for a failure of `category`.
        package init(category: ErrorCategory) {
            switch category {
            case .usage: self = .badRequest
            case .notFound, .noInput: self = .notFound
            case .policy: self = .forbidden
            case .auth: self = Code(rawValue: 401)
            case .network: self = .badGateway
            case .temporary: self = .unavailable
            case .cancelled: self = .cancelled
            case .storage, .archive, .internal: self = .internalError
            }
        }

        package var description: String { String(rawValue) }
    }

    /// The code sent as `ErrorCode`.
    package let code: Code
    /// The text sent as `ErrorMessage`: what failed and what to do.
    package let message: String

    /// Creates an error answered with `code` and `message`.
    package init(_ code: Code, _ message: String) {
        self.code = code
        self.message = message
    }

    /// 404 for a command nobody handles; `hint` is appended in parentheses.
    package static func unknownCommand(_ command: String, hint: String? = nil) -> BridgeError {
        BridgeError(.notFound, "unknown command: \(command)" + (hint.map { " (\($0))" } ?? ""))
    }

    /// 409 for a request whose GUID is still being answered.
    static func inFlight(_ guid: String) -> BridgeError {
        BridgeError(.conflict, "GUID \(guid) is already in flight; use a new GUID per request")
    }

    package var category: ErrorCategory {
        switch code {
        case .badRequest, .payloadTooLarge: .usage
        case .notFound: .notFound
        case .forbidden: .policy
        case .cancelled: .cancelled
        case .badGateway: .network
        case .conflict, .tooManyRequests, .unavailable, .timeout: .temporary
        default: .internal
        }
    }

    package var description: String { message }
}
