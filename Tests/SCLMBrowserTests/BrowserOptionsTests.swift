import SCLMTestSupport
import Testing

@testable import SCLMBrowser

/// Parsing `--viewport`.
@Suite(.tags(.small))
struct BrowserOptionsTests {
    @Test func viewportsParseWidthByHeight() {
        #expect(BrowserOptions.Viewport(parsing: "1024x768") == BrowserOptions.Viewport(width: 1024, height: 768))
        #expect(BrowserOptions.Viewport(parsing: "800X600")?.height == 600)
        #expect(BrowserOptions.Viewport(parsing: "10x10") == nil)
        #expect(BrowserOptions.Viewport(parsing: "1024") == nil)
    }
}
