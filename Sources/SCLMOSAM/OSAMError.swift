import SCLMCore
import SCLMPolicy

/// A request to OSAM that cannot be carried out as asked (not a backend failure, which is an `ERROR` outcome).
public struct OSAMError: CategorizedError, Equatable {
    /// What is wrong and what to do.
    public let message: String
    public let category: ErrorCategory

    /// Creates an error.
    public init(_ category: ErrorCategory, _ message: String) {
        self.category = category
        self.message = message
    }

    /// The error for a refused alert answer.
    init(answer error: AnswerError, package packageName: String) {
        if error.isMissingAlert {
            self.init(.notFound, "no version-control alert of \(packageName) is waiting for an answer; run a version-control check first")
        } else {
            self.init(.usage, error.message)
        }
    }

    public var description: String { message }
}
