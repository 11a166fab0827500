/// The server-side fields of one slide, as stored in `slides`; `position` is its place in the
/// presentation's slide list.
package struct SlideRecord: Sendable, Equatable, Codable {
    package var slideId: Int64
    package var presentationId: Int64
    package var position: Int64
    package var revision: Int64
    package var name: String
    /// The slide's HTML, base64 as the server sends it.
    package var pageSource: String?
    /// Comma-separated slide names this slide links to (the presentation map).
    package var linkedSlides: String?
    package var swipeNext: String?
    package var swipePrevious: String?
    package var created: String?
    package var updatedDate: String?

    /// Creates a record.
    package init(
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
    package init(row: Row) throws {
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
    package static let table = "slides"
    package static let columns = [
        "slideId", "presentationId", "position", "revision", "name", "pageSource", "linkedSlides", "swipeNext",
        "swipePrevious", "created", "updatedDate",
    ]
    package var primaryKey: Int64 { slideId }

    package func bind(_ bind: inout ColumnBinder) throws {
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
