import Foundation
import SCLMCore
import SCLMTestSupport
import Testing

/// `getNextSlide` / `getPreviousSlide` through the built `sclm bridge`, for every row of the navigation
/// table (the slide's own `clm-swipe-*` meta, then the server's target, then presentation order), and the
/// start slide of a package without `index.html`.
@Suite(.tags(.large), .timeLimit(.minutes(2))) struct BridgeNavigationTests {
    /// The `<head>` markup declaring `next` and `previous` (`nil`: no tag).
    static func meta(next: String? = nil, previous: String? = nil) -> String {
        [
            next.map { #"<meta name="clm-swipe-next" content="\#($0)">"# },
            previous.map { #"<meta name="clm-swipe-previous" content="\#($0)">"# },
        ]
        .compactMap { $0 }.joined()
    }

    /// No `index.html`; one slide per row of the table, in this server order.
    static let deck = InstalledPresentationFixture(
        presentationId: 30, name: "Swipe deck",
        slides: [
            .init("p.html", head: ""),
            .init(
                "a.html", swipeNext: "b.html", swipePrevious: "c.html", head: meta(next: "d.html", previous: "f.html")),
            .init(
                "b.html", swipeNext: "c.html", swipePrevious: "a.html",
                head: meta(next: "ghost.html", previous: "ghost.html")),
            .init("c.html", swipeNext: "a.html", swipePrevious: "a.html", head: meta(next: "", previous: "")),
            .init("d.html", swipeNext: "a.html", swipePrevious: "f.html", head: ""),
            .init("e.html", swipeNext: "", swipePrevious: "", head: ""),
            .init("f.html", swipeNext: "gone.html", head: ""),
            .init("gone.html", isPackaged: false),
        ],
        mediaFiles: [])

    struct Row: Sendable, CustomTestStringConvertible {
        let name: String
        let slide: String
        /// The answer of `getNextSlide`: a slide, or the 404 message.
        let next: Answer
        let previous: Answer
        var testDescription: String { name }
    }

    enum Answer: Sendable, Equatable {
        case slide(String)
        case notFound(String)
    }

    static let rows: [Row] = [
        Row(
            name: "1: the meta names a slide → that slide, whatever the server says", slide: "a.html",
            next: .slide("d.html"), previous: .slide("f.html")),
        Row(
            name: "1: the meta names a slide the package lacks → 404", slide: "b.html",
            next: .notFound("No next slide: the package has no slide 'ghost.html'"),
            previous: .notFound("No previous slide: the package has no slide 'ghost.html'")),
        Row(
            name: "2: the meta is present and empty → 404, whatever the server says", slide: "c.html",
            next: .notFound("No next slide"), previous: .notFound("No previous slide")),
        Row(
            name: "3: no meta, the server names a slide → that slide", slide: "d.html",
            next: .slide("a.html"), previous: .slide("f.html")),
        Row(
            name: "3: no meta, the server names a slide the package lacks → 404", slide: "f.html",
            next: .notFound("No next slide: the package has no slide 'gone.html'"), previous: .slide("e.html")),
        Row(
            name: "4: no meta, the server sends \"\" → presentation order", slide: "e.html",
            next: .slide("f.html"), previous: .slide("d.html")),
        Row(
            name: "4: no meta, nothing from the server, first slide → order, else 404", slide: "p.html",
            next: .slide("a.html"), previous: .notFound("No previous slide")),
    ]

    static func answer(_ response: [String: Any]?) -> Answer? {
        guard let response else { return nil }
        if response["ErrorCode"] as? Int == 200, let slide = (response["Data"] as? [String: Any])?["slide"] as? String {
            return .slide(slide)
        }
        guard response["ErrorCode"] as? Int == 404 else { return nil }
        return .notFound(response["ErrorMessage"] as? String ?? "")
    }

    @Test(arguments: rows) func swipesFollowThePackageThenTheServerThenTheOrder(_ row: Row) async throws {
        let bridge = try await BridgeSession(["--slide", row.slide], fixtures: [Self.deck])
        #expect(Self.answer(await bridge.call("getNextSlide")) == row.next)
        #expect(Self.answer(await bridge.call("getPreviousSlide")) == row.previous)
        #expect(await bridge.process.finish() == 0)
    }

    @Test func aPackageWithoutIndexStartsAtTheServersFirstSlide() async throws {
        let bridge = try await BridgeSession(fixtures: [Self.deck])
        #expect((bridge.opened["Data"] as? [String: Any])?["slide"] as? String == "p.html")
        #expect((await bridge.data("getCurrentSlideName") as? [String: String])?["slide"] == "p.html")
        #expect(await bridge.process.finish() == 0)
    }

    @Test func withoutAServerSlideListThePackagesFirstPageOpensElseAClearError() async throws {
        var pages = InstalledPresentationFixture(presentationId: 31, name: "Pages only", slides: [], mediaFiles: [])
        pages.extraFiles = ["zeta.html": "<html></html>", "alpha.html": "<html></html>", "notes.txt": "x"]
        let empty = InstalledPresentationFixture(presentationId: 32, name: "Nothing", slides: [], mediaFiles: [])
        let bridge = try await BridgeSession(fixtures: [pages, empty])
        #expect((bridge.opened["Data"] as? [String: Any])?["slide"] as? String == "alpha.html")
        let refused = try #require(await bridge.call("open", ["presId": 32, "slideName": "", "data": [:]]))
        #expect(refused["ErrorCode"] as? Int == 404)
        #expect(
            (refused["ErrorMessage"] as? String)?.contains("presentation 32 (Nothing) has no slide to open") == true,
            "\(refused)")
        #expect(await bridge.process.finish() == 0)

        let start = try await ProcessRunner.sclm(["bridge", "--presentation", "32"], home: bridge.home.root, stdin: "")
        #expect(start.status == 1, "\(start)")
        #expect(start.stderr.contains("has no slide to open: its package has no index.html"), "\(start.stderr)")
        #expect(start.stdout.isEmpty)
    }
}
