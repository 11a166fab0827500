import SCLMBrowser
import SCLMCore
import SCLMTestSupport
import Testing

/// How a message the browser wrote on the DevTools pipe is decoded.
@Suite(.tags(.small)) struct DevToolsMessageTests {
    private func decode(_ text: String) -> DevToolsMessage? { DevToolsMessage(Array(text.utf8)) }

    @Test func resultsRefusalsAndEventsAreTold() {
        #expect(decode(#"{"id":1,"result":{"a":1}}"#) == .result(id: 1, ["a": 1]))
        #expect(decode(#"{"id":2}"#) == .result(id: 2, [:]))
        #expect(
            decode(#"{"id":3,"error":{"code":-32000,"message":"No target"}}"#) == .refusal(id: 3, message: "No target"))
        #expect(decode(#"{"id":4,"error":"plain"}"#) == .refusal(id: 4, message: #""plain""#))
        #expect(
            decode(#"{"method":"Page.loadEventFired","sessionId":"S","params":{"t":1}}"#)
                == .event(method: "Page.loadEventFired", session: "S", params: ["t": 1]))
        #expect(
            decode(#"{"method":"Target.targetCreated"}"#)
                == .event(method: "Target.targetCreated", session: "", params: [:]))
    }

    @Test func whatIsNotAMessageIsDropped() {
        for text in [
            "", "[1]", #"{"id":"1"}"#, #"{"id":1.5}"#, #"{"id":1e300}"#, #"{"method":7}"#, "{\"id\":1", "\u{FF}",
        ] {
            #expect(decode(text) == nil, "\(text)")
        }
    }

    @Test func pageErrorLinesFromTheBrowserAreOneBasedWithoutTrapping() {
        let uncaught = PageErrors.uncaught(["exceptionDetails": ["text": "Uncaught", "lineNumber": .int(.max)]])
        #expect(uncaught == .uncaughtError(message: "Uncaught", url: nil, line: nil))
        let console = PageErrors.console([
            "args": [["value": "x"]], "stackTrace": ["callFrames": [["url": "a.js", "lineNumber": 4]]],
        ])
        #expect(console == .consoleError(message: "x", url: "a.js", line: 5))
    }
}
