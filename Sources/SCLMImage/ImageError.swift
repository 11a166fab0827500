import SCLMCore

/// A picture that could not be read or written.
package struct ImageError: CategorizedError, Equatable {
    package let category: ErrorCategory
    package let message: String

    /// Creates an error of `category` saying `message`.
    package init(_ category: ErrorCategory, _ message: String) {
        self.category = category
        self.message = message
    }

    package var description: String { message }
}
