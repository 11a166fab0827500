import SCLMCore

/// A backend answer that is not a usable OSAM record: a missing required field or a value of the wrong type.
///
/// Its category is `.network` (the service answered, but badly); the decision it feeds becomes `ERROR`.
package struct ResponseError: CategorizedError, Equatable {
    /// What is wrong, naming the field.
    package let message: String

    /// Creates an error.
    package init(_ message: String) { self.message = message }

    package var category: ErrorCategory { .network }
    package var description: String { message }
}
