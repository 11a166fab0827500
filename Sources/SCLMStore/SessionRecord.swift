import Foundation
import SCLMCore

/// One presentation session as StoryContent keeps it (`BridgeSession`, table `sessions`).
///
/// A session opens with its presentation and ends when the presentation closes. ``State`` follows
/// StoryContent's `SessionState`: an unfinished session (``State/unfinished``) is restored the next
/// time the presentation opens; only completed sessions are published to analytics.
package struct SessionRecord: Sendable, Equatable {
    /// StoryContent's `SessionState` (0…4).
    package enum State: Int64, Sendable, Equatable {
        /// Open (`isInProcess`).
        case inProcess = 0
        /// Closed and saved (`isComplete`): published to analytics.
        case complete = 1
        /// Closed as a test run (`isTest`): never published.
        case test = 2
        /// Left for another presentation through content (`isLeaveViaJs`).
        case leftViaContent = 3
        /// Left through a deep link (`isLeaveViaDeepLink`).
        case leftViaDeepLink = 4

        /// The states of a session that may be restored (0, 3 or 4).
        package static let unfinished: [State] = [.inProcess, .leftViaContent, .leftViaDeepLink]

        /// ``unfinished`` as an SQL list for `state IN …`: `(0, 3, 4)`.
        package static let unfinishedSQL = "(" + unfinished.map { String($0.rawValue) }.joined(separator: ", ") + ")"
    }

    package var sessionId: String
    package var presentationId: Int64
    package var userId: String?
    package var state: State
    /// Set by content with `setSessionComplete` (the presentation was fully shown).
    package var complete: Bool
    /// Seconds spent on slides so far.
    package var duration: Int64
    /// `duration` when content declared the session complete.
    package var completeSessionDuration: Int64
    package var slidesCount: Int64
    package var lastOpenedSlideId: Int64?
    package var lastOpenedSlideName: String?
    /// ISO-8601 UTC.
    package var created: String
    package var updated: String?
    /// Hours from UTC, as StoryContent reports it.
    package var timeZone: Int64
    package var latitude: Double?
    package var longitude: Double?
    package var address: String?
    package var isRestored: Bool
    /// The storyclm.js 1.x session's `visit`, set by content with `sessionupdate` (0 until then).
    package var visit: Int64
    /// The storyclm.js 1.x session's `checkIn`, set by content with `sessionupdate` (0 until then).
    package var checkIn: Int64

    /// Creates a new, open session.
    package init(
        sessionId: String, presentationId: Int64, userId: String?, created: String, timeZone: Int64,
        latitude: Double? = nil, longitude: Double? = nil, address: String? = nil
    ) {
        self.sessionId = sessionId
        self.presentationId = presentationId
        self.userId = userId
        self.state = .inProcess
        self.complete = false
        self.duration = 0
        self.completeSessionDuration = 0
        self.slidesCount = 0
        self.created = created
        self.timeZone = timeZone
        self.latitude = latitude
        self.longitude = longitude
        self.address = address
        self.isRestored = false
        self.visit = 0
        self.checkIn = 0
    }

    /// Reads a session from a `sessions` row.
    ///
    /// - Throws: ``StoreError`` (`.decoding`) naming a missing or mistyped column.
    init(row: Row) throws {
        let columns = ColumnReader(row, table: AnalyticsTable.sessions.name)
        sessionId = try columns.text("sessionId")
        presentationId = try columns.int64("presentationId")
        userId = try columns.optionalText("userId")
        state = try columns.value("state")
        complete = try columns.bool("complete")
        duration = try columns.int64("duration")
        completeSessionDuration = try columns.int64("completeSessionDuration")
        slidesCount = try columns.int64("slidesCount")
        lastOpenedSlideId = try columns.optionalInt64("lastOpenedSlideId")
        lastOpenedSlideName = try columns.optionalText("lastOpenedSlideName")
        created = try columns.text("created")
        updated = try columns.optionalText("updated")
        timeZone = try columns.int64("timeZone")
        latitude = try columns.optionalDouble("latitude")
        longitude = try columns.optionalDouble("longitude")
        address = try columns.optionalText("address")
        isRestored = try columns.bool("isRestored")
        visit = try columns.int64("visit")
        checkIn = try columns.int64("checkIn")
    }
}

/// One slide view of a session (`SessionAction`, table `session_actions`).
package struct SlideActionRecord: Sendable, Equatable {
    package var id: String
    package var sessionId: String
    package var presentationId: Int64
    package var userId: String?
    package var slideId: Int64?
    package var slideName: String
    /// How the slide was left (StoryContent logs `in` for in-presentation navigation).
    package var navigation: String
    /// Seconds on the slide.
    package var duration: Int64
    /// When the view started (ISO-8601 UTC).
    package var created: String
    package var timeZone: Int64
    package var latitude: Double?
    package var longitude: Double?

    /// Creates a slide view.
    package init(
        id: String, sessionId: String, presentationId: Int64, userId: String?, slideId: Int64?, slideName: String,
        navigation: String, duration: Int64, created: String, timeZone: Int64, latitude: Double? = nil,
        longitude: Double? = nil
    ) {
        self.id = id
        self.sessionId = sessionId
        self.presentationId = presentationId
        self.userId = userId
        self.slideId = slideId
        self.slideName = slideName
        self.navigation = navigation
        self.duration = duration
        self.created = created
        self.timeZone = timeZone
        self.latitude = latitude
        self.longitude = longitude
    }

    /// Reads a slide view from a `session_actions` row (`navigation` is never `NULL` from schema version 3).
    ///
    /// - Throws: ``StoreError`` (`.decoding`) naming a missing or mistyped column.
    init(row: Row) throws {
        let columns = ColumnReader(row, table: AnalyticsTable.slideViews.name)
        id = try columns.text("id")
        sessionId = try columns.text("sessionId")
        presentationId = try columns.int64("presentationId")
        userId = try columns.optionalText("userId")
        slideId = try columns.optionalInt64("slideId")
        slideName = try columns.text("slideName")
        navigation = try columns.text("navigation")
        duration = try columns.int64("duration")
        created = try columns.text("created")
        timeZone = try columns.int64("timeZone")
        latitude = try columns.optionalDouble("latitude")
        longitude = try columns.optionalDouble("longitude")
    }
}

/// One custom event of a session (`SessionEventAction`, table `custom_events`): a key and a string value.
package struct CustomEventRecord: Sendable, Equatable {
    package var id: String
    package var sessionId: String
    package var presentationId: Int64
    package var userId: String?
    package var key: String
    package var value: String
    package var created: String
    package var timeZone: Int64
    package var latitude: Double?
    package var longitude: Double?

    /// Creates a custom event.
    package init(
        id: String, sessionId: String, presentationId: Int64, userId: String?, key: String, value: String,
        created: String, timeZone: Int64, latitude: Double? = nil, longitude: Double? = nil
    ) {
        self.id = id
        self.sessionId = sessionId
        self.presentationId = presentationId
        self.userId = userId
        self.key = key
        self.value = value
        self.created = created
        self.timeZone = timeZone
        self.latitude = latitude
        self.longitude = longitude
    }
}
