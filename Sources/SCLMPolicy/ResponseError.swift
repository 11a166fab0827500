import SCLMCore

/// A backend answer that is not a usable OSAM record: a missing required field or a value of the wrong type.
///
/// Its category is `.network` (the service answered, but badly); the decision it feeds becomes `ERROR`.
public struct ResponseError: CategorizedError, Equatable {
    /// What is wrong, naming the field.
    public let message: String

    /// Creates an error.
    public init(_ message: String) { self.message = message }

    public var category: ErrorCategory { .network }
    public var description: String { message }
}
