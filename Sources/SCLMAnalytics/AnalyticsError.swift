import SCLMCore

/// A failure of the analytics outbox as a whole (a row-level failure is recorded on the row instead).
package struct AnalyticsError: CategorizedError, Equatable {
    /// The class of failure. New kinds may be added; do not switch exhaustively.
    package struct Code: Hashable, Sendable, CustomStringConvertible {
        private enum Base: String, Hashable, Sendable {
            case notConfigured
        }
        private let base: Base

        /// The `iot.*` settings are missing, partial or malformed (exit 64).
        package static let notConfigured = Code(base: .notConfigured)

        package var description: String { base.rawValue }
    }

    /// The class of failure.
    package let code: Code
    /// What failed and what to do.
    package let message: String

    /// Creates an error.
    package init(_ code: Code, _ message: String) {
        self.code = code
        self.message = message
    }

    package var category: ErrorCategory { .usage }
    package var description: String { message }
}
