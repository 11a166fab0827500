import SCLMArchive
import SCLMTestSupport
import Testing

/// ``SlideMeta``: a slide's `clm-swipe-*` meta tags, absent, empty or naming a slide.
@Suite(.tags(.small)) struct SlideMetaTests {
    struct Case: Sendable, CustomTestStringConvertible {
        let name: String
        let html: String
        let expected: SlideMeta
        var testDescription: String { name }
    }

    static let cases: [Case] = [
        Case(
            name: "no meta tags: both absent", html: "<html><head><title>x</title></head></html>", expected: SlideMeta()
        ),
        Case(
            name: "targets are read and trimmed",
            html: #"<meta name="clm-swipe-next" content=" 2.html "><meta name="clm-swipe-previous" content='0.html'>"#,
            expected: SlideMeta(swipeNext: "2.html", swipePrevious: "0.html")),
        Case(
            name: "an empty content is present and empty", html: #"<meta name="clm-swipe-next" content="">"#,
            expected: SlideMeta(swipeNext: "")),
        Case(
            name: "a tag without content is present and empty", html: #"<meta name="clm-swipe-previous">"#,
            expected: SlideMeta(swipePrevious: "")),
        Case(
            name: "names compare case-insensitively, entities are decoded",
            html: #"<META NAME="CLM-Swipe-Next" CONTENT="a&amp;b.html">"#, expected: SlideMeta(swipeNext: "a&b.html")),
        Case(
            name: "the first tag of a name counts",
            html: #"<meta name="clm-swipe-next" content=""><meta name="clm-swipe-next" content="2.html">"#,
            expected: SlideMeta(swipeNext: "")),
        Case(
            name: "text and scripts that look like tags are not tags",
            html:
                #"<script>var s = '<meta name="clm-swipe-next" content="x.html">';</script><!-- <meta name="clm-swipe-previous" content="y.html"> -->"#,
            expected: SlideMeta()),
        Case(
            name: "other meta tags are ignored", html: #"<meta name="clm" content="1"><meta charset="utf-8">"#,
            expected: SlideMeta()),
    ]

    @Test(arguments: cases) func readsTheDeclarations(_ test: Case) {
        #expect(SlideMeta(html: Array(test.html.utf8)) == test.expected)
    }

    @Test func readsAFileAndGivesNilForAMissingOne() throws {
        let folder = TemporaryDirectory()
        let path = try folder.write(#"<meta name="clm-swipe-next" content="2.html">"#, to: "slide.html")
        #expect(SlideMeta.read(path: path) == SlideMeta(swipeNext: "2.html"))
        #expect(SlideMeta.read(path: folder.appending("missing.html")) == nil)
    }
}
