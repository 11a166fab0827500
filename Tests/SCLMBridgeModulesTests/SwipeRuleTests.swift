import SCLMArchive
import SCLMTestSupport
import Testing

@testable import SCLMBridgeModules

/// ``SwipeRule``: every row of the navigation table, for `getNextSlide` and `getPreviousSlide`.
@Suite(.tags(.small)) struct SwipeRuleTests {
    struct Case: Sendable, CustomTestStringConvertible {
        let name: String
        let direction: SwipeRule.Direction
        var current = "b.html"
        /// The slide's own meta target (`nil`: no tag, `""`: empty).
        let meta: String?
        /// The server's target for the slide (`nil`: none sent).
        let server: String?
        let expected: SwipeRule.Target
        var testDescription: String { "\(direction): \(name)" }
    }

    /// The server's slide list.
    static let order = ["a.html", "b.html", "c.html", "d.html"]

    static let cases: [Case] = [SwipeRule.Direction.next, .previous].flatMap { direction in
        let neighbour = direction == .next ? "c.html" : "a.html"
        return [
            Case(
                name: "1: the meta names a slide, the server another → the meta's", direction: direction,
                meta: "d.html",
                server: "a.html", expected: .slide("d.html")),
            Case(
                name: "1: the meta names a slide, the server sends \"\" → the meta's", direction: direction,
                meta: "d.html",
                server: "", expected: .slide("d.html")),
            Case(
                name: "1: the meta names a slide not in the list → that slide (the host checks the package)",
                direction: direction, meta: "ghost.html", server: nil, expected: .slide("ghost.html")),
            Case(
                name: "2: the meta is present and empty, the server names a slide → none", direction: direction,
                meta: "",
                server: "d.html", expected: .none),
            Case(
                name: "2: the meta is present and empty, a neighbour exists → none", direction: direction, meta: "",
                server: nil, expected: .none),
            Case(
                name: "3: no meta, the server names a slide → the server's", direction: direction, meta: nil,
                server: "d.html", expected: .slide("d.html")),
            Case(
                name: "4: no meta, the server sends \"\" → presentation order", direction: direction, meta: nil,
                server: "", expected: .slide(neighbour)),
            Case(
                name: "4: no meta, no server target → presentation order", direction: direction, meta: nil,
                server: nil, expected: .slide(neighbour)),
            Case(
                name: "4: no meta, no server target, at the end of the list → none", direction: direction,
                current: direction == .next ? "d.html" : "a.html", meta: nil, server: nil, expected: .none),
            Case(
                name: "4: a slide the server does not list has no order → none", direction: direction,
                current: "extra.html", meta: nil, server: nil, expected: .none),
        ]
    }

    @Test(arguments: cases) func decides(_ test: Case) {
        let declared = test.direction == .next ? SlideMeta(swipeNext: test.meta) : SlideMeta(swipePrevious: test.meta)
        let server = InstalledPresentation.Slide(
            id: 1, name: test.current, linkedSlides: [], swipeNext: test.direction == .next ? test.server : nil,
            swipePrevious: test.direction == .previous ? test.server : nil)
        let listed = Self.order.contains(test.current) ? server : nil
        let target = SwipeRule.target(
            test.direction, from: test.current, declared: declared, server: listed, order: Self.order)
        #expect(target == test.expected)
    }

    @Test func eachDirectionReadsOnlyItsOwnDeclarations() {
        let declared = SlideMeta(swipeNext: "", swipePrevious: "d.html")
        let server = InstalledPresentation.Slide(
            id: 1, name: "b.html", linkedSlides: [], swipeNext: "a.html", swipePrevious: "")
        #expect(SwipeRule.target(.next, from: "b.html", declared: declared, server: server, order: Self.order) == .none)
        #expect(
            SwipeRule.target(.previous, from: "b.html", declared: declared, server: server, order: Self.order)
                == .slide("d.html"))
        let bare = SlideMeta()
        #expect(
            SwipeRule.target(.next, from: "b.html", declared: bare, server: server, order: Self.order)
                == .slide("a.html"))
        #expect(
            SwipeRule.target(.previous, from: "b.html", declared: bare, server: server, order: Self.order)
                == .slide("a.html"))
    }
}
