import Foundation
import SCLMCore

/// One presentation session as StoryContent keeps it (`BridgeSession`, table `sessions`).
///
/// A session opens with its presentation and ends when the presentation closes. ``State`` follows
/// StoryContent's `SessionState`: an unfinished session (``State/unfinished``) is restored the next
/// time the presentation opens; only completed sessions are published to analytics.
public struct SessionRecord: Sendable, Equatable {
    /// StoryContent's `SessionState` (0…4).
    public enum State: Int64, Sendable, Equatable {
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
        public static let unfinished: [State] = [.inProcess, .leftViaContent, .leftViaDeepLink]

        /// ``unfinished`` as an SQL list for `state IN …`: `(0, 3, 4)`.
        public static let unfinishedSQL = "(" + unfinished.map { String($0.rawValue) }.joined(separator: ", ") + ")"
    }

    public var sessionId: String
    public var presentationId: Int64
    public var userId: String?
    public var state: State
    /// Set by content with `setSessionComplete` (the presentation was fully shown).
    public var complete: Bool
    /// Seconds spent on slides so far.
    public var duration: Int64
    /// `duration` when content declared the session complete.
    public var completeSessionDuration: Int64
    public var slidesCount: Int64
    public var lastOpenedSlideId: Int64?
    public var lastOpenedSlideName: String?
    /// ISO-8601 UTC.
    public var created: String
    public var updated: String?
    /// Hours from UTC, as StoryContent reports it.
    public var timeZone: Int64
    public var latitude: Double?
    public var longitude: Double?
    public var address: String?
    public var isRestored: Bool

    /// Creates a new, open session.
    public init(
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
    }

    init(row: Row) throws {
        sessionId = try row.get("sessionId")
        presentationId = try row.get("presentationId")
        userId = row.string("userId")
        state = State(rawValue: try row.get("state", as: Int64.self)) ?? .inProcess
        complete = row.bool("complete") ?? false
        duration = row.int("duration") ?? 0
        completeSessionDuration = row.int("completeSessionDuration") ?? 0
        slidesCount = row.int("slidesCount") ?? 0
        lastOpenedSlideId = row.int("lastOpenedSlideId")
        lastOpenedSlideName = row.string("lastOpenedSlideName")
        created = try row.get("created")
        updated = row.string("updated")
        timeZone = row.int("timeZone") ?? 0
        latitude = row.double("latitude")
        longitude = row.double("longitude")
        address = row.string("address")
        isRestored = row.bool("isRestored") ?? false
    }
}

/// One slide view of a session (`SessionAction`, table `session_actions`).
public struct SlideActionRecord: Sendable, Equatable {
    public var id: String
    public var sessionId: String
    public var presentationId: Int64
    public var userId: String?
    public var slideId: Int64?
    public var slideName: String
    /// How the slide was left (StoryContent logs `in` for in-presentation navigation).
    public var navigation: String
    /// Seconds on the slide.
    public var duration: Int64
    /// When the view started (ISO-8601 UTC).
    public var created: String
    public var timeZone: Int64
    public var latitude: Double?
    public var longitude: Double?

    /// Creates a slide view.
    public init(
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

    init(row: Row) throws {
        id = try row.get("id")
        sessionId = try row.get("sessionId")
        presentationId = try row.get("presentationId")
        userId = row.string("userId")
        slideId = row.int("slideId")
        slideName = try row.get("slideName")
        navigation = row.string("navigation") ?? ""
        duration = row.int("duration") ?? 0
        created = try row.get("created")
        timeZone = row.int("timeZone") ?? 0
        latitude = row.double("latitude")
        longitude = row.double("longitude")
    }
}

/// One custom event of a session (`SessionEventAction`, table `custom_events`): a key and a string value.
public struct CustomEventRecord: Sendable, Equatable {
    public var id: String
    public var sessionId: String
    public var presentationId: Int64
    public var userId: String?
    public var key: String
    public var value: String
    public var created: String
    public var timeZone: Int64
    public var latitude: Double?
    public var longitude: Double?

    /// Creates a custom event.
    public init(
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
