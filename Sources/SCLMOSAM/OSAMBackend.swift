import SCLMPolicy

/// The OSAM backend as the checks see it: fetch the records, tell whether it can be reached.
///
/// Fetch failures are values (``FetchResult/failed(_:)``): a failed fetch is an `ERROR` outcome, not a
/// failure of the caller. Only cancellation is thrown.
package protocol OSAMBackend: Sendable {
    /// `GET {endpoint}/api/version/{package}/{PLATFORM}/{versionCode}`; ALVersionControl answers get
    /// `deviceNow` as their server date.
    ///
    /// - Throws: `CancellationError` only.
    func version(package packageName: String, platform: Platform, versionCode: Int64, deviceNow: Int64) async throws
        -> FetchResult<VersionRecord>
    /// `GET {endpoint}/api/rating/{package}/{PLATFORM}`.
    ///
    /// - Throws: `CancellationError` only.
    func rating(package packageName: String, platform: Platform) async throws -> FetchResult<RatingRecord>
    /// Whether the backend answers at all (a quick request with a short timeout).
    func isOnline() async -> Bool
}
