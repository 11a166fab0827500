import SCLMTestSupport
import Testing

@testable import SCLMArchive

/// Records what the tokenizer reports, as text for easy comparison.
private struct Recorder: HTMLTokenSink {
    var events: [String] = []

    mutating func handleTag(_ tag: HTMLTag) {
        let attributes = tag.attributes.map { "\($0.name)=\(String(decoding: $0.value, as: UTF8.self))@\($0.line)" }
        events.append(
            (tag.isEndTag ? "/" : "") + tag.name + "@\(tag.line)"
                + (attributes.isEmpty ? "" : " " + attributes.joined(separator: " ")))
    }

    mutating func handleRawText(_ bytes: UnsafeRawBufferPointer, of element: String) {
        let text = String(decoding: bytes, as: UTF8.self)
        if let last = events.last, last.hasPrefix("text(\(element)):") {
            events[events.count - 1] = last + text
        } else {
            events.append("text(\(element)):" + text)
        }
    }
}

@Suite(.tags(.small)) struct HTMLTokenizerTests {
    private static func tokenize(_ html: String, chunkSize: Int = .max) -> [String] {
        var tokenizer = HTMLTokenizer()
        var recorder = Recorder()
        let bytes = Array(html.utf8)
        var start = 0
        while start < bytes.count {
            let end = min(bytes.count, start + chunkSize)
            bytes[start..<end].withUnsafeBytes { tokenizer.feed($0, into: &recorder) }
            start = end
        }
        return recorder.events
    }

    @Test func attributesInEveryQuotingStyle() {
        let events = Self.tokenize(#"<img src="a.png" alt='x y' width=10 hidden data-x = "z">"#)
        #expect(events == ["img@1 src=a.png@1 alt=x y@1 width=10@1 hidden=@1 data-x=z@1"])
    }

    @Test func namesAreLowercasedAndLinesCounted() {
        let events = Self.tokenize("<HTML>\n<Link\n  REL=stylesheet\n  HREF=\"a.css\">\n</html>")
        #expect(events == ["html@1", "link@2 rel=stylesheet@3 href=a.css@4", "/html@5"])
    }

    @Test func commentsDoctypesAndProcessingInstructionsAreSkipped() {
        let events = Self.tokenize(
            "<!DOCTYPE html><!-- <img src=\"no.png\"> -- still --><?xml x?><!--[if IE]><img src=ie.png><![endif]--><p>")
        #expect(events == ["p@1"])
    }

    @Test func scriptAndStyleContentIsRawText() {
        let events = Self.tokenize(
            "<script>if (a < b) { x = '</scrip' + 't>'; }</script><style>a{b:url(c)}</STYLE ><b>")
        #expect(
            events == [
                "script@1", "text(script):if (a < b) { x = '</scrip' + 't>'; }", "/script@1", "style@1",
                "text(style):a{b:url(c)}", "/style@1", "b@1",
            ])
    }

    @Test func aStrayLessThanIsText() {
        #expect(Self.tokenize("a < b and 3<4 <img src=x>") == ["img@1 src=x@1"])
    }

    @Test func selfClosingAndSlashesBetweenAttributes() {
        #expect(
            Self.tokenize("<br/><img src=a.png / alt=b /><x a/b>") == [
                "br@1", "img@1 src=a.png@1 alt=b@1", "x@1 a=@1 b=@1",
            ])
    }

    @Test(arguments: [1, 2, 3, 5, 7, 13])
    func chunkBoundariesDoNotChangeTheResult(chunkSize: Int) {
        let html = """
            <!doctype html><html><head><!-- c --><meta name="clm-swipe-next" content='2.html'>
            <style>
            body { background: url("a.png") }</style><script src=js/storyclm.js></script>
            <script>StoryCLM.Go("x") // </script
            </script></head><body><img src = "i.png" srcset="a.png 1x, b.png 2x"></body></html>
            """
        #expect(Self.tokenize(html, chunkSize: chunkSize) == Self.tokenize(html))
    }
}

@Suite(.tags(.small)) struct CSSTokenizerTests {
    private static func scan(_ css: String, chunkSize: Int = .max) -> [String] {
        var tokenizer = CSSTokenizer()
        let bytes = Array(css.utf8)
        var start = 0
        while start < bytes.count {
            let end = min(bytes.count, start + chunkSize)
            tokenizer.feed(bytes[start..<end])
            start = end
        }
        return tokenizer.takeFound().map { ($0.isImport ? "@import " : "") + $0.value + "@\($0.line)" }
    }

    @Test func urlsWithAndWithoutQuotes() {
        let css = "a { background: URL(a.png) } b { src: url( 'b c.woff' ) format('woff'), url(\"d.svg#i\") }"
        #expect(Self.scan(css) == ["a.png@1", "b c.woff@1", "d.svg#i@1"])
    }

    @Test func importsInBothForms() {
        #expect(
            Self.scan("@import 'a.css';\n@import url(b.css) screen;\n@IMPORT \"c.css\";") == [
                "@import a.css@1", "@import b.css@2", "@import c.css@3",
            ])
    }

    @Test func commentsAndOrdinaryStringsAreNotReferences() {
        let css =
            "/* url(no.png) @import 'no.css'; */ a::after { content: 'url(no2.png)'; }\n.x{background:url(yes.png)}"
        #expect(Self.scan(css) == ["yes.png@2"])
    }

    @Test func escapesAndBadURLs() {
        #expect(Self.scan(#"a{b:url(a\)b.png)} c{d:url(bad"url) e:url(ok.png)}"#) == ["a)b.png@1", "ok.png@1"])
    }

    @Test func notEveryFunctionEndingInUrlIsURL() {
        #expect(Self.scan("a{b:myurl(x.png); c:url(y.png)}") == ["y.png@1"])
    }

    @Test(arguments: [1, 2, 3, 4])
    func chunkBoundariesDoNotChangeTheResult(chunkSize: Int) {
        let css = "@import url('x.css');\n/* url(a) */\nb{c:url( \"y z.png\" )}\n@import 'w.css';"
        #expect(Self.scan(css, chunkSize: chunkSize) == Self.scan(css))
    }
}
