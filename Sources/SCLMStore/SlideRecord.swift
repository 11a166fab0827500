/// The server-side fields of one slide, as stored in `slides`; `position` is its place in the
/// presentation's slide list.
public struct SlideRecord: Sendable, Equatable, Codable {
    public var slideId: Int64
    public var presentationId: Int64
    public var position: Int64
    public var revision: Int64
    public var name: String
    /// The slide's HTML, base64 as the server sends it.
    public var pageSource: String?
    /// Comma-separated slide names this slide links to (the presentation map).
    public var linkedSlides: String?
    public var swipeNext: String?
    public var swipePrevious: String?
    public var created: String?
    public var updatedDate: String?

    /// Creates a record.
    public init(
        slideId: Int64, presentationId: Int64, position: Int64 = 0, revision: Int64, name: String,
        pageSource: String? = nil, linkedSlides: String? = nil, swipeNext: String? = nil, swipePrevious: String? = nil,
        created: String? = nil, updatedDate: String? = nil
    ) {
        self.slideId = slideId
        self.presentationId = presentationId
        self.position = position
        self.revision = revision
        self.name = name
        self.pageSource = pageSource
        self.linkedSlides = linkedSlides
        self.swipeNext = swipeNext
        self.swipePrevious = swipePrevious
        self.created = created
        self.updatedDate = updatedDate
    }

    /// Reads a record from a `slides` row.
    public init(row: Row) {
        self.init(
            slideId: row.int("slideId") ?? 0, presentationId: row.int("presentationId") ?? 0,
            position: row.int("position") ?? 0, revision: row.int("revision") ?? -1, name: row.string("name") ?? "",
            pageSource: row.string("pageSource"), linkedSlides: row.string("linkedSlides"),
            swipeNext: row.string("swipeNext"), swipePrevious: row.string("swipePrevious"),
            created: row.string("created"), updatedDate: row.string("updatedDate"))
    }
}

extension SlideRecord: UpsertableRecord {
    public static let table = "slides"
    public static let columns = [
        "slideId", "presentationId", "position", "revision", "name", "pageSource", "linkedSlides", "swipeNext",
        "swipePrevious", "created", "updatedDate",
    ]
    public var primaryKey: Int64 { slideId }

    public func bind(_ bind: inout ColumnBinder) throws {
        try bind(slideId)
        try bind(presentationId)
        try bind(position)
        try bind(revision)
        try bind(name)
        try bind(pageSource)
        try bind(linkedSlides)
        try bind(swipeNext)
        try bind(swipePrevious)
        try bind(created)
        try bind(updatedDate)
    }
}
