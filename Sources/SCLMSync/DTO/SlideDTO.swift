import SCLMStore

/// A slide as `GET /v1/slides/{id}` returns it (`SCLMSlide`); `pageSource` is base64 HTML.
package struct SlideDTO: Sendable, Equatable, Decodable {
    package var id: Int64
    package var revision: Int64
    package var name: String
    package var pageSource: String?
    package var linkedSlides: String?
    package var swipeNext: String?
    package var swipePrevious: String?
    package var created: String?
    package var updated: String?

    private enum CodingKeys: String, CodingKey {
        case id, revision, name, pageSource, linkedSlides, swipeNext, swipePrevious, created, updated
    }

    package init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        id = try container.decode(Int64.self, forKey: .id)
        revision = container.lenient(.revision, default: -1)
        name = container.lenient(.name, default: "")
        pageSource = container.lenient(.pageSource)
        linkedSlides = container.lenient(.linkedSlides)
        swipeNext = container.lenient(.swipeNext)
        swipePrevious = container.lenient(.swipePrevious)
        created = container.lenient(.created)
        updated = container.lenient(.updated)
    }

    /// The stored form at `position` in `presentationId`'s slide list.
    package func record(presentationId: Int64, position: Int64) -> SlideRecord {
        SlideRecord(
            slideId: id, presentationId: presentationId, position: position, revision: revision, name: name,
            pageSource: pageSource, linkedSlides: linkedSlides, swipeNext: swipeNext, swipePrevious: swipePrevious,
            created: created, updatedDate: updated)
    }
}
