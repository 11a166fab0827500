import SCLMTestSupport
import Testing

@testable import SCLMArchive

/// The static text of a slide: text nodes per element in document order, entities decoded, white space
/// collapsed, script, style, title and template content left out.
@Suite(.tags(.small)) struct SlideTextTests {
    @Test func textRunsCarryTheirElement() {
        let html = """
            <!DOCTYPE html><html><head><title>Not shown</title><style>p { color: red }</style></head>
            <body>
              <h1 id="claim" class="lead big">Cardiora&reg; lowers\n   blood&nbsp;pressure</h1>
              <p>Once <b>daily</b> dosing<br>for adults &amp; the elderly.</p>
              <script>document.write("not static")</script>
              <template><p>hidden</p></template>
              <img src="a.png" alt="alt text is not seen">
              <!-- a comment -->
            </body></html>
            """
        let text = SlideText(html: Array(html.utf8))
        #expect(
            text.runs == [
                SlideText.Run(element: "h1#claim.lead.big", text: "Cardiora® lowers blood pressure"),
                SlideText.Run(element: "p", text: "Once"),
                SlideText.Run(element: "b", text: "daily"),
                SlideText.Run(element: "p", text: "dosing"),
                SlideText.Run(element: "p", text: "for adults & the elderly."),
            ])
        #expect(text.words.map(\.text).prefix(3) == ["Cardiora®", "lowers", "blood"])
    }

    @Test func unclosedAndStrayTagsKeepTheText() {
        let text = SlideText(html: Array("<div><p>one<p>two</span></div>three".utf8))
        #expect(text.runs.map(\.text) == ["one", "two", "three"])
        #expect(text.runs.last?.element == "document")
    }
}
