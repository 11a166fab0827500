/// OSAM's `RatingControlResponse`: ACCEPTED means "request the review prompt now".
package enum RatingResponse: String, Sendable, Codable {
    case accepted = "ACCEPTED"
    case dismissed = "DISMISSED"
    case error = "ERROR"
}

/// Why a rating check ended as it did.
package enum RatingReason: String, Sendable, Codable, CaseIterable {
    /// ACCEPTED: enough minutes and openings since the last prompt.
    case due
    /// DISMISSED: fewer minutes than configured since the first call or the last prompt.
    case tooSoon = "too-soon"
    /// DISMISSED: fewer openings than configured.
    case tooFewOpenings = "too-few-openings"
    /// DISMISSED: the user declined under OSAM 1.x (`DONT_SHOW_AGAIN`).
    case declinedForever = "declined-forever"
    /// ERROR: the rating record could not be fetched.
    case fetchFailed = "fetch-failed"
}

/// The outcome of ``RatingPolicy/decide(now:fetch:state:)`` and the state to persist.
package struct RatingDecision: Sendable, Equatable {
    /// ACCEPTED, DISMISSED or ERROR.
    package var response: RatingResponse
    /// Why.
    package var reason: RatingReason
    /// What failed, for ERROR.
    package var failure: String?
    /// The state after the call; persist it for every response, ERROR included (the opening counts).
    package var state: OSAMState
    /// Analytics events to log.
    package var events: [OSAMEvent]
}

/// OSAM's rating rules (§6.2) as a pure function: count openings, wait minutes, then request a prompt.
///
/// - Every call counts one opening (`NUM_APERTURES`), before the fetch and even when the fetch fails.
/// - The clock (`LAST_DATETIME`) starts at the first call ever and restarts at each prompt.
/// - A prompt is due when `minutes` have passed and `NUM_APERTURES ≥ numAperture` (both `≥`), unless the
///   legacy `DONT_SHOW_AGAIN` is set. Requesting it resets the counter to 0 and restarts the clock.
/// - Offline (or never fetched) uses the cached configuration, else 2880 minutes and 5 openings.
/// - An app update resets nothing.
package enum RatingPolicy {
    /// Counts this opening and decides whether to request the review prompt.
    package static func decide(now: Int64, fetch: FetchResult<RatingRecord>, state: OSAMState) -> RatingDecision {
        var state = state
        if state.ratingClockStart == 0 { state.ratingClockStart = now }
        state.ratingOpenings += 1
        switch fetch {
        case .failed(let failure):
            return RatingDecision(response: .error, reason: .fetchFailed, failure: failure, state: state, events: [])
        case .fetched(let record):
            state.cache(record)
        case .offline:
            break
        }
        let rating = state.cachedRating
        if let reason = dismissal(rating, state: state, now: now) {
            return RatingDecision(response: .dismissed, reason: reason, failure: nil, state: state, events: [])
        }
        state.ratingClockStart = now
        if state.ratingOpenings >= rating.numAperture { state.ratingOpenings = 0 }
        return RatingDecision(response: .accepted, reason: .due, failure: nil, state: state, events: [.ratingShowed])
    }

    private static func dismissal(_ rating: RatingRecord, state: OSAMState, now: Int64) -> RatingReason? {
        if state.declinedRatingForever { return .declinedForever }
        if Clock.isWaiting(since: state.ratingClockStart, now: now, length: rating.minutes, unit: 60_000) {
            return .tooSoon
        }
        if state.ratingOpenings < rating.numAperture { return .tooFewOpenings }
        return nil
    }
}
