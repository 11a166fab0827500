/// The rating configuration of an app: after how many minutes and openings the review prompt is requested.
package struct RatingRecord: Sendable, Equatable, Codable {
    /// Minutes that must have passed since the first call or the last prompt.
    package var minutes: Int64
    /// Calls of `rating` needed since the last prompt.
    package var numAperture: Int64
    /// The obsolete message (unused since OSAM 2.0; kept for the state), if the backend sent one.
    package var message: LocalizedText?

    /// The platforms a rating record may name (OSAM's `Platform` enum).
    static let knownPlatforms: Set<String> = ["ANDROID", "IOS"]

    /// OSAM's defaults when nothing was ever fetched: 2880 minutes (two days) and 5 openings.
    package static let defaults = RatingRecord(minutes: 2880, numAperture: 5)

    /// Creates a rating configuration.
    package init(minutes: Int64, numAperture: Int64, message: LocalizedText? = nil) {
        self.minutes = minutes
        self.numAperture = numAperture
        self.message = message
    }
}
