import SCLMCore

/// A failure of the analytics outbox as a whole (a row-level failure is recorded on the row instead).
public struct AnalyticsError: CategorizedError, Equatable {
    /// The class of failure. New kinds may be added; do not switch exhaustively.
    public struct Code: Hashable, Sendable, CustomStringConvertible {
        private enum Base: String, Hashable, Sendable {
            case notConfigured
        }
        private let base: Base

        /// The `iot.*` settings are missing, partial or malformed (exit 64).
        public static let notConfigured = Code(base: .notConfigured)

        public var description: String { base.rawValue }
    }

    /// The class of failure.
    public let code: Code
    /// What failed and what to do.
    public let message: String

    /// Creates an error.
    public init(_ code: Code, _ message: String) {
        self.code = code
        self.message = message
    }

    public var category: ErrorCategory { .usage }
    public var description: String { message }
}
