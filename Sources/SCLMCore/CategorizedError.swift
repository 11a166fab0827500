/// An error that knows its ``ErrorCategory``.
///
/// Every module error (`StoreError`, `HTTPError`, `ArchiveError`, …) conforms. Its `description` is one
/// sentence that says what failed and what to do, and never contains tokens, passwords or bodies.
package protocol CategorizedError: Error, Sendable, CustomStringConvertible {
    /// The broad class of this failure.
    var category: ErrorCategory { get }
}

extension Error {
    /// The category of any error: its own for a ``CategorizedError``, `.cancelled` for
    /// `CancellationError`, `.internal` otherwise.
    package var category: ErrorCategory {
        switch self {
        case let error as any CategorizedError: error.category
        case is CancellationError: .cancelled
        default: .internal
        }
    }

    /// A one-line, user-facing description of any error.
    package var userMessage: String {
        switch self {
        case let error as any CategorizedError: error.description
        case is CancellationError: "cancelled"
        // A decoding error's own description names Swift types (`Dictionary<String, Any>`); say the JSON kind.
        case is DecodingError: "unexpected JSON: \(JSONValue.describe(decodingError: self))"
        default: String(describing: self)
        }
    }
}

/// A plain categorized error with a message, for failures that need no dedicated type.
package struct SCLMError: CategorizedError, Equatable {
    package let category: ErrorCategory
    package let message: String
    /// The `errno` of the failed system call behind a storage error, so callers can react to a full disk.
    package let systemError: Int32?

    /// Creates an error of `category` whose description is `message`.
    package init(_ category: ErrorCategory, _ message: String, systemError: Int32? = nil) {
        self.category = category
        self.message = message
        self.systemError = systemError
    }

    package var description: String { message }
}
