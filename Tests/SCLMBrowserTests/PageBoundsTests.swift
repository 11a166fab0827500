import SCLMCore
import SCLMTestSupport
import Testing

@testable import SCLMBrowser

/// How much of what a page says is kept: one message, one slide, one DevTools event too large to read.
@Suite(.tags(.small))
struct PageBoundsTests {
    @Test func aLongMessageIsCutAtACharacterWithTheCutCounted() {
        let text = String(repeating: "я", count: 1_500)  // 2 bytes each: 3,000 bytes
        let cut = PageErrors.capped(text)
        #expect(cut == String(repeating: "я", count: 1_000) + "… (1000 bytes cut)")
        #expect(PageErrors.capped("short") == "short")
    }

    @Test func consoleArgumentsAreJoinedOnlyUpToTheCap() {
        let big = String(repeating: "x", count: 5_000)
        let params: JSONValue = [
            "args": [["type": "string", "value": "first"], ["type": "string", "value": .string(big)]]
        ]
        guard case .consoleError(let message, _, _) = PageErrors.console(params) else {
            Issue.record("not a console error")
            return
        }
        #expect(message.hasPrefix("first xxx"))
        #expect(message.hasSuffix("… (3006 bytes cut)"), "5,006 bytes in all, 2,000 kept")
    }

    @Test func aSlideReportsAtMostItsBudgetThenSaysHowMuchWasCut() {
        var budget = MessageBudget()
        let issue = PageIssue.consoleError(message: "again", url: nil, line: nil)
        let admitted = (0..<80).filter { _ in budget.admit(issue) }.count
        #expect(admitted == MessageBudget.maximumIssues)
        let navigation = budget.admit(.navigation(command: "go", data: [:]))
        #expect(navigation, "navigation notes are never cut")
        guard case .messagesCut(let count, let bytes)? = budget.close() else {
            Issue.record("no note")
            return
        }
        #expect(count == 30 && bytes == 30 * issue.json.jsonString.utf8.count)
        let next = budget.close()
        #expect(next == nil, "a fresh budget for the next slide")
    }

    @Test func anEventTooLargeToReadKeepsItsMethodSessionAndHead() {
        let head = Array(
            #"{"method":"Runtime.consoleAPICalled","params":{"type":"error","args":[{"type":"string","value":"boom"#
                .utf8)
        let tail = Array(#""}]},"sessionId":"S1"}"#.utf8)
        var event = SkippedEvent(head + Array(repeating: UInt8(ascii: "x"), count: 10_000))
        event.add(Array(repeating: UInt8(ascii: "x"), count: 50_000) + tail)
        #expect(event.method == "Runtime.consoleAPICalled")
        #expect(event.session == "S1")
        #expect(event.bytes == head.count + 60_000 + tail.count)
        let params: JSONValue = [
            "method": .string(event.method), "bytes": .int(Int64(event.bytes)),
            "head": .string(String(decoding: event.head, as: UTF8.self)),
        ]
        guard case .consoleError(let message, _, _)? = PageErrors.oversized(params) else {
            Issue.record("not reported as a console error")
            return
        }
        #expect(message.hasPrefix("boomxxx"))
        #expect(message.hasSuffix("(a message of \(event.bytes) bytes, too large to read: cut)"))
    }

    @Test func aRequestTooLargeToReadIsNamedByItsHead() {
        let params: JSONValue = [
            "head": #"{"method":"Fetch.requestPaused","params":{"requestId":"interception-job-7.0","request":{"#
        ]
        #expect(PageErrors.requestId(inHead: params) == "interception-job-7.0")
        #expect(
            PageErrors.requestId(inHead: ["head": #"{"method":"Fetch.requestPaused","params":{"requestId":"inter"#])
                == nil)
    }
}
