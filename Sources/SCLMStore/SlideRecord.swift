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
    ///
    /// - Throws: ``StoreError`` (`.decoding`) naming a missing or mistyped column.
    public init(row: Row) throws {
        let columns = ColumnReader(row, table: Self.table)
        self.init(
            slideId: try columns.int64("slideId"), presentationId: try columns.int64("presentationId"),
            position: try columns.int64("position"), revision: try columns.int64("revision"),
            name: try columns.text("name"), pageSource: try columns.optionalText("pageSource"),
            linkedSlides: try columns.optionalText("linkedSlides"), swipeNext: try columns.optionalText("swipeNext"),
            swipePrevious: try columns.optionalText("swipePrevious"), created: try columns.optionalText("created"),
            updatedDate: try columns.optionalText("updatedDate"))
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
