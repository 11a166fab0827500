/// What a version-control record asks the app to do (`comparisonMode`).
package enum ComparisonMode: String, Sendable, Codable, CaseIterable, CustomStringConvertible {
    /// An alert with one button that opens the update URL; ignores "don't show again" and the throttle.
    case force = "FORCE"
    /// An alert with OK (opens the URL) and Cancel.
    case lazy = "LAZY"
    /// An informative alert with OK only; opens nothing.
    case info = "INFO"
    /// No alert.
    case none = "NONE"

    package var description: String { rawValue }
}
