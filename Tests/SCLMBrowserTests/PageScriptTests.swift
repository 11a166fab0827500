import SCLMTestSupport
import Testing

@testable import SCLMBrowser

/// The expression that hands a bridge line to the page.
@Suite(.tags(.small))
struct PageScriptTests {
    @Test func answersAreDeliveredAsOneJavaScriptStringLiteral() {
        let line = #"{"GUID":"g","Data":{"text":"it's \"quoted\" </script> \u2028"}}"#
        let expression = PageScript.deliver(line)
        #expect(expression.hasPrefix("window.StoryCLMBridge && window.StoryCLMBridge.StoryCLMHandler(\""))
        #expect(expression.hasSuffix("\")"))
        #expect(!expression.contains("\n"))
    }
}
