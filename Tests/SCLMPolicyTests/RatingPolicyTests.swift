import SCLMPolicy
import SCLMTestSupport
import Testing

/// The rating rules of §6.2 and vectors derived from them (§6.3).
@Suite(.tags(.small)) struct RatingPolicyTests {
    struct Case: Sendable, CustomTestStringConvertible {
        let name: String
        /// (NUM_APERTURES, LAST_DATETIME) before the call.
        let before: (openings: Int64, clock: Int64)
        var cached: RatingRecord? = nil
        var declined = false
        let fetch: FetchResult<RatingRecord>
        let response: RatingResponse
        let reason: RatingReason
        /// (NUM_APERTURES, LAST_DATETIME) after the call.
        let after: (openings: Int64, clock: Int64)
        var testDescription: String { name }
    }

    static let now = Fixtures.now
    static let minute = Fixtures.minute
    static let config = RatingRecord(minutes: 90, numAperture: 20)

    static let cases: [Case] = [
        Case(
            name: "the first call ever starts the clock and counts one opening", before: (0, 0),
            fetch: .fetched(config),
            response: .dismissed, reason: .tooSoon, after: (1, now)),
        Case(
            name: "due when both thresholds are met exactly (≥, ≥): prompt, reset, restart",
            before: (19, now - 90 * minute),
            fetch: .fetched(config), response: .accepted, reason: .due, after: (0, now)),
        Case(
            name: "one millisecond short of the minutes → DISMISSED", before: (19, now - 90 * minute + 1),
            fetch: .fetched(config), response: .dismissed, reason: .tooSoon, after: (20, now - 90 * minute + 1)),
        Case(
            name: "one opening short → DISMISSED", before: (18, now - 90 * minute), fetch: .fetched(config),
            response: .dismissed, reason: .tooFewOpenings, after: (19, now - 90 * minute)),
        Case(
            name: "far more openings than needed → ACCEPTED and reset to 0", before: (57, now - 900 * minute),
            fetch: .fetched(config),
            response: .accepted, reason: .due, after: (0, now)),
        Case(
            name: "a failed fetch → ERROR, the opening still counts", before: (3, now - minute),
            fetch: .failed("HTTP 500"),
            response: .error, reason: .fetchFailed, after: (4, now - minute)),
        Case(
            name: "a failed first fetch still starts the clock", before: (0, 0), fetch: .failed("timeout"),
            response: .error, reason: .fetchFailed, after: (1, now)),
        Case(
            name: "offline is not an error: the cached configuration applies", before: (1, now - 2 * minute),
            cached: RatingRecord(minutes: 2, numAperture: 2), fetch: .offline, response: .accepted, reason: .due,
            after: (0, now)),
        Case(
            name: "offline and never fetched: OSAM's defaults (2880 minutes, 5 openings)",
            before: (4, now - 2879 * minute),
            fetch: .offline, response: .dismissed, reason: .tooSoon, after: (5, now - 2879 * minute)),
        Case(
            name: "the defaults are met after two days and five openings", before: (4, now - 2880 * minute),
            fetch: .offline, response: .accepted, reason: .due, after: (0, now)),
        Case(
            name: "a fresh fetch replaces the cached configuration", before: (1, now - minute),
            cached: RatingRecord(minutes: 1000, numAperture: 100),
            fetch: .fetched(RatingRecord(minutes: 1, numAperture: 2)),
            response: .accepted, reason: .due, after: (0, now)),
        Case(
            name: "OSAM 1.x's DONT_SHOW_AGAIN blocks the prompt for good", before: (100, 1), declined: true,
            fetch: .fetched(RatingRecord(minutes: 0, numAperture: 0)), response: .dismissed, reason: .declinedForever,
            after: (101, 1)),
        Case(
            name: "minutes 0 and numAperture 1: every call prompts", before: (0, now - 1),
            fetch: .fetched(RatingRecord(minutes: 0, numAperture: 1)),
            response: .accepted, reason: .due, after: (0, now)),
        Case(
            name: "a device clock set back before the last prompt waits (now − last < minutes)",
            before: (57, now + 900 * minute),
            fetch: .fetched(config), response: .dismissed, reason: .tooSoon, after: (58, now + 900 * minute)),
        Case(
            name: "an absurd minutes value never prompts instead of overflowing", before: (100, 1),
            fetch: .fetched(RatingRecord(minutes: .max, numAperture: 1)), response: .dismissed, reason: .tooSoon,
            after: (101, 1)),
    ]

    @Test(arguments: cases) func decides(_ test: Case) {
        var state = OSAMState()
        state.ratingOpenings = test.before.openings
        state.ratingClockStart = test.before.clock
        if let cached = test.cached { state.cache(cached) }
        if test.declined { state[.dontShowAgain] = "true" }
        let decision = RatingPolicy.decide(now: Self.now, fetch: test.fetch, state: state)
        #expect(decision.response == test.response)
        #expect(decision.reason == test.reason)
        #expect(decision.state.ratingOpenings == test.after.openings)
        #expect(decision.state.ratingClockStart == test.after.clock)
        #expect(decision.events == (test.response == .accepted ? [.ratingShowed] : []))
    }

    @Test func fetchedConfigurationIsCachedForOfflineUse() {
        let record = RatingRecord(minutes: 7, numAperture: 3, message: LocalizedText(ca: "a", es: "b", en: "c"))
        let decision = RatingPolicy.decide(now: Self.now, fetch: .fetched(record), state: OSAMState())
        #expect(decision.state.cachedRating == record)
        #expect(decision.state.values["RATING_DATE_INTERVAL"] == "7")
        #expect(decision.state.values["RATING_NUM_APERTURES"] == "3")
        #expect(decision.state.values["RATING_MESSAGE_ES"] == "b")
    }

    /// §6.3-style vector: minutes 0, numAperture 3 → a prompt on every third opening, forever.
    @Test func promptsPeriodicallyEveryNOpenings() {
        var state = OSAMState()
        var responses: [RatingResponse] = []
        for call in 0..<9 {
            let decision = RatingPolicy.decide(
                now: Self.now + Int64(call) * Self.minute, fetch: .fetched(RatingRecord(minutes: 0, numAperture: 3)),
                state: state)
            responses.append(decision.response)
            state = decision.state
        }
        #expect(
            responses == [
                .dismissed, .dismissed, .accepted, .dismissed, .dismissed, .accepted, .dismissed, .dismissed, .accepted,
            ])
    }

    /// §6.3-style vector: minutes 60, numAperture 2 → the clock, not the count, decides after a prompt.
    @Test func waitsForTheMinutesAgainAfterAPrompt() {
        var state = OSAMState()
        let config = FetchResult.fetched(RatingRecord(minutes: 60, numAperture: 2))
        let offsets: [Int64] = [0, 60, 61, 100, 120, 121]
        let responses = offsets.map { offset -> RatingResponse in
            let decision = RatingPolicy.decide(now: Self.now + offset * Self.minute, fetch: config, state: state)
            state = decision.state
            return decision.response
        }
        #expect(responses == [.dismissed, .accepted, .dismissed, .dismissed, .accepted, .dismissed])
    }

    @Test func anAppUpdateResetsNothing() {
        var state = OSAMState()
        state.ratingOpenings = 4
        state.ratingClockStart = Self.now - 10 * Self.minute
        var updated = Fixtures.app
        updated.versionCode += 1
        updated.versionName = "9.9.9"
        let afterTopics = TopicPolicy.firstTimeOrUpdate(language: .ca, app: updated, deviceLanguage: "ca", state: state)
            .state
        let afterCheck = VersionControlPolicy.decide(
            .init(now: Self.now, fetch: .fetched(Fixtures.record(.lazy)), app: updated, language: .ca),
            state: afterTopics
        ).state
        #expect(afterCheck.ratingOpenings == 4)
        #expect(afterCheck.ratingClockStart == Self.now - 10 * Self.minute)
    }
}
