extension OSAMState {
    /// Calls of `rating` since the last prompt (`NUM_APERTURES`).
    package var ratingOpenings: Int64 {
        get { int(.numApertures, default: 0) }
        set { set(.numApertures, newValue) }
    }

    /// The first `rating` call, then the last prompt, in ms (`LAST_DATETIME`; 0 = never called).
    package var ratingClockStart: Int64 {
        get { int(.lastDatetime, default: 0) }
        set { set(.lastDatetime, newValue) }
    }

    /// OSAM 1.x's "no, thanks" (`DONT_SHOW_AGAIN`): read, never written.
    package var declinedRatingForever: Bool {
        bool(.dontShowAgain, default: false)
    }

    /// The rating configuration last fetched, or OSAM's defaults (2880 minutes, 5 openings).
    package var cachedRating: RatingRecord {
        let hasMessage = Language.allCases.contains { values[OSAMKey.ratingMessage.localized($0)] != nil }
        return RatingRecord(
            minutes: int(.ratingDateInterval, default: RatingRecord.defaults.minutes),
            numAperture: int(.ratingNumApertures, default: RatingRecord.defaults.numAperture),
            message: hasMessage ? text(.ratingMessage, default: LocalizedText("")) : nil)
    }

    /// Stores a fetched rating configuration.
    package mutating func cache(_ rating: RatingRecord) {
        set(.ratingDateInterval, rating.minutes)
        set(.ratingNumApertures, rating.numAperture)
        if let message = rating.message { set(.ratingMessage, message) }
    }
}
