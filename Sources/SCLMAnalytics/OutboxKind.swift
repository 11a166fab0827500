import SCLMCore
import SCLMStore

/// The three kinds of analytics rows the outbox publishes, each with its table, id column, StoryIoT
/// event id and the body StoryContent's `asDict` sends (docs/analytics.md, "The wire format").
package enum OutboxKind: String, Sendable, Codable, CaseIterable, CustomStringConvertible {
    /// A presentation session (`sessions`, StoryContent's `BridgeSession`).
    case session
    /// One slide view (`session_actions`, `SessionAction`).
    case slide
    /// A custom event set by content or recorded by OSAM (`custom_events`, `SessionEventAction`).
    case customEvent

    /// The store's table of this kind.
    var storeTable: AnalyticsTable {
        switch self {
        case .session: .sessions
        case .slide: .slideViews
        case .customEvent: .customEvents
        }
    }

    /// The kind of rows kept in `table`.
    init(_ table: AnalyticsTable) {
        switch table {
        case .sessions: self = .session
        case .slideViews: self = .slide
        case .customEvents: self = .customEvent
        }
    }

    /// The SQLite table.
    package var table: String { storeTable.name }

    /// The column holding the row's stable id, sent as the StoryIoT entity id (`s-m-id`).
    package var idColumn: String { storeTable.idColumn }

    /// The StoryIoT event id (`s-m-eid`).
    package var eventId: String {
        switch self {
        case .session: "story.content.session"
        case .slide: "story.content.slide"
        case .customEvent: "story.content.customevent"
        }
    }

    /// The body keys in StoryContent's `asDict` order, with how each column is sent.
    var bodyFields: [BodyField] {
        switch self {
        case .session:
            [
                .text("sessionId"), .text("presentationId"), .text("userId"), .text("address"),
                .localTime("created"), .integer("state"), .boolean("complete"), .number("latitude"),
                .number("longitude"), .integer("duration"), .integer("slidesCount"), .integer("timeZone"),
                .integer("completeSessionDuration"),
            ]
        case .slide:
            [
                .text("id"), .text("sessionId"), .text("presentationId"), .text("userId"),
                .text("slideId"), .text("slideName"), .text("navigation"), .localTime("created"),
                .integer("timeZone"), .integer("duration"),
            ]
        case .customEvent:
            [
                .text("id"), .text("sessionId"), .text("presentationId"), .text("userId"), .text("key"),
                .text("value"), .localTime("created"), .integer("timeZone"), .number("latitude"),
                .number("longitude"),
            ]
        }
    }

    package var description: String {
        switch self {
        case .session: "session"
        case .slide: "slide view"
        case .customEvent: "custom event"
        }
    }
}

/// One key of a message body: the column it comes from and how its value is written.
///
/// `text` sends the column as a string, also an integer one: StoryContent keeps `presentationId` and
/// `slideId` as strings (Core Data `String` attributes). `localTime` sends `created` as local time, like
/// the `s-m-lt` header.
enum BodyField: Sendable {
    case text(String)
    case integer(String)
    case boolean(String)
    case number(String)
    case localTime(String)

    /// The column, which is also the body key.
    var column: String {
        switch self {
        case .text(let name), .integer(let name), .boolean(let name), .number(let name), .localTime(let name):
            name
        }
    }
}
