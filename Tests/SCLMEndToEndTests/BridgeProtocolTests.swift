import Foundation
import SCLMCore
import SCLMTestSupport
import Testing

/// The conformance cases of the bridge protocol (docs/bridge.md), against the built `sclm bridge` through pipes.
@Suite(.tags(.large), .timeLimit(.minutes(2))) struct BridgeProtocolTests {
    // 1
    @Test func twoMessagesInOneWriteGetTwoAnswers() async throws {
        let bridge = try await BridgeSession()
        bridge.process.write(
            #"{"Command":"getCurrentSlideName","Data":{},"GUID":"one"}"# + "\n"
                + #"{"Command":"bridge.ping","GUID":"two"}"# + "\n")
        #expect(await bridge.process.response(to: "one")?["ErrorCode"] as? Int == 200)
        #expect(await bridge.process.response(to: "two")?["ErrorCode"] as? Int == 200)
        #expect(await bridge.process.finish() == 0)
    }

    // 2
    @Test func aMessageSplitAtEveryByteOffsetIsReadWhole() async throws {
        let bridge = try await BridgeSession()
        let message = Array(#"{"Command":"getCurrentSlideName","Data":{"note":"привет ✓"},"GUID":"split-X"}"#.utf8)
        for offset in 1..<message.count {
            let guid = "split-\(offset)"
            let bytes = Array(
                String(decoding: message, as: UTF8.self).replacingOccurrences(of: "split-X", with: guid).utf8)
            bridge.process.write(Data(bytes[..<offset]))
            try await Task.sleep(for: .milliseconds(1))
            bridge.process.write(Data(bytes[offset...]) + Data("\n".utf8))
            let response = await bridge.process.response(to: guid)
            #expect(response?["ErrorCode"] as? Int == 200, "offset \(offset)")
        }
        #expect(await bridge.process.finish() == 0)
        #expect(!bridge.process.allLines.contains { $0.contains("\"GUID\":null") })
    }

    // 3
    @Test func crlfLineEndingsAreAccepted() async throws {
        let bridge = try await BridgeSession()
        bridge.process.write(#"{"Command":"bridge.ping","GUID":"crlf"}"# + "\r\n")
        #expect(await bridge.process.response(to: "crlf")?["ErrorCode"] as? Int == 200)
        #expect(await bridge.process.finish() == 0)
    }

    // 4
    @Test func blankLinesAreIgnored() async throws {
        let bridge = try await BridgeSession()
        bridge.process.write("\n\r\n   \n\t\n" + #"{"Command":"bridge.ping","GUID":"after-blanks"}"# + "\n")
        let next = try #require(await bridge.process.nextMessage())
        #expect(next["GUID"] as? String == "after-blanks")
        #expect(await bridge.process.finish() == 0)
        #expect(bridge.process.allLines.count == 3)  // two start-up events and the ping
    }

    // 5
    @Test func aGarbageLineIsAnswered400AndTheNextLineStillWorks() async throws {
        let bridge = try await BridgeSession()
        bridge.process.send("this is not json {")
        bridge.process.send(#"{"Command":"bridge.ping","GUID":"recovered"}"#)
        let garbage = try #require(await bridge.process.nextMessage())
        #expect(garbage["GUID"] is NSNull)
        #expect(garbage["ErrorCode"] as? Int == 400)
        #expect((garbage["ErrorMessage"] as? String)?.contains("malformed JSON") == true)
        #expect(await bridge.process.nextMessage()?["GUID"] as? String == "recovered")
        #expect(await bridge.process.finish() == 0)
    }

    // 6
    @Test func anOversizedLineIsSkippedWithExactlyOne413() async throws {
        let bridge = try await BridgeSession(["--max-line-bytes", "1024"])
        let padding = String(repeating: "x", count: 5_000)
        bridge.process.send(#"{"Command":"bridge.ping","GUID":"big","Data":{"pad":"\#(padding)"}}"#)
        bridge.process.send(#"{"Command":"bridge.ping","GUID":"small"}"#)
        let tooLarge = try #require(await bridge.process.nextMessage())
        #expect(tooLarge["ErrorCode"] as? Int == 413)
        #expect(tooLarge["GUID"] is NSNull)
        #expect(await bridge.process.nextMessage()?["GUID"] as? String == "small")
        #expect(await bridge.process.finish() == 0)
        #expect(bridge.process.allLines.filter { $0.contains(#""ErrorCode":413"#) }.count == 1)
    }

    // 7
    @Test func aNotificationWithAnUnknownCommandWritesNothing() async throws {
        let bridge = try await BridgeSession()
        bridge.process.send(#"{"Command":"getFoo","Data":{}}"#)
        bridge.process.send(#"{"Command":"bridge.ping","GUID":"marker"}"#)
        #expect(await bridge.process.nextMessage()?["GUID"] as? String == "marker")
        #expect(await bridge.process.finish() == 0)
        #expect(bridge.process.stderr.contains("getFoo"))
    }

    // 8
    @Test func anUnknownCommandWithAGUIDIsAnswered404() async throws {
        let bridge = try await BridgeSession()
        let response = try #require(await bridge.call("getFoo", guid: "unknown-1"))
        #expect(response["ErrorCode"] as? Int == 404)
        #expect(response["Status"] as? String == "Failure")
        #expect(response["ErrorMessage"] as? String == "unknown command: getFoo")
        #expect(response["Data"] is NSNull)
        #expect(await bridge.process.finish() == 0)
    }

    // 9
    @Test func aDuplicateInFlightGUIDIs409AndTheFirstStillAnswers() async throws {
        let bridge = try await BridgeSession(["--module", BridgeSession.echoModule])
        bridge.process.send(json: ["Command": "echo.sleep", "Data": ["ms": 400], "GUID": "twice"])
        bridge.process.send(json: ["Command": "echo.say", "Data": ["second": true], "GUID": "twice"])
        let conflict = try #require(await bridge.process.response(to: "twice"))
        #expect(conflict["ErrorCode"] as? Int == 409)
        let first = try #require(await bridge.process.response(to: "twice"))
        #expect(first["ErrorCode"] as? Int == 200)
        #expect((first["Data"] as? [String: Any])?["slept"] as? Int == 400)
        #expect(await bridge.process.finish() == 0)
    }

    // 10
    @Test func aThousandConcurrentRequestsGetAThousandAnswersEachOnce() async throws {
        let bridge = try await BridgeSession(["--module", BridgeSession.echoModule, "--max-in-flight", "1000"])
        var batch = ""
        for index in 0..<1_000 {
            let command =
                index % 2 == 0
                ? #""Command":"echo.sleep","Data":{"ms":\#(index % 37)}"# : #""Command":"getCurrentSlideName""#
            batch += #"{\#(command),"GUID":"c\#(index)"}"# + "\n"
        }
        bridge.process.write(batch)
        var seen = Set<String>()
        for _ in 0..<1_000 {
            let message = try #require(await bridge.process.nextMessage())
            #expect(message["ErrorCode"] as? Int == 200)
            let guid = try #require(message["GUID"] as? String)
            #expect(seen.insert(guid).inserted, "\(guid) answered twice")
        }
        #expect(seen.count == 1_000)
        #expect(await bridge.process.finish() == 0)
        #expect(bridge.process.unreadLines.isEmpty)
    }

    // 11
    @Test func cancelBeforeDuringAndAfterCompletion() async throws {
        let bridge = try await BridgeSession(["--module", BridgeSession.echoModule])
        // Before: the target is unknown, nothing is cancelled, and the GUID still works afterwards.
        let early = try #require(await bridge.call("bridge.cancel", ["GUID": "later"]))
        #expect((early["Data"] as? [String: Any])?["cancelled"] as? Bool == false)
        #expect(await bridge.call("echo.say", guid: "later")?["ErrorCode"] as? Int == 200)
        // During: the target answers 499 at once, and its late result (woken once the cancel is answered)
        // is dropped.
        bridge.process.send(json: ["Command": "echo.sleep", "Data": ["ms": 600_000], "GUID": "slow"])
        #expect(await bridge.echoSleeps(pendingAtLeast: 1))
        let cancel = try #require(await bridge.call("bridge.cancel", ["GUID": "slow"]))
        #expect((cancel["Data"] as? [String: Any])?["cancelled"] as? Bool == true)
        let cancelled = try #require(await bridge.process.response(to: "slow"))
        #expect(cancelled["ErrorCode"] as? Int == 499)
        #expect(await bridge.wakeEchoSleeps() == 1)
        // After: a finished request cannot be cancelled.
        #expect(await bridge.call("echo.say", guid: "done")?["ErrorCode"] as? Int == 200)
        let late = try #require(await bridge.call("bridge.cancel", ["guid": "done"]))
        #expect((late["Data"] as? [String: Any])?["cancelled"] as? Bool == false)
        #expect(await bridge.process.finish() == 0)
        #expect(bridge.process.allLines.filter { $0.contains(#""GUID":"slow""#) }.count == 1)
        #expect(bridge.process.allLines.filter { $0.contains(#""GUID":"done""#) }.count == 1)
    }

    // 12
    @Test func aTimeoutIsAnswered504AndTheLateResultIsDropped() async throws {
        let bridge = try await BridgeSession(["--module", BridgeSession.echoModule, "--timeout-ms", "200"])
        // The handler sleeps ten minutes: a 504 can only come from the 200 ms timeout. Its late result,
        // woken afterwards, is dropped.
        let response = try #require(await bridge.call("echo.sleep", ["ms": 600_000], guid: "too-slow"))
        #expect(response["ErrorCode"] as? Int == 504)
        #expect(await bridge.wakeEchoSleeps() == 1)
        #expect(await bridge.call("bridge.ping", guid: "still-alive")?["ErrorCode"] as? Int == 200)
        #expect(await bridge.process.finish() == 0)
        #expect(bridge.process.allLines.filter { $0.contains(#""GUID":"too-slow""#) }.count == 1)
    }

    // 13
    @Test func aFailingHandlerIsAnswered500AndTheHostKeepsRunning() async throws {
        let bridge = try await BridgeSession()
        _ = try bridge.sql("DROP TABLE custom_events")
        let response = try #require(await bridge.call("getCustomEventByKey", ["key": "k"], guid: "boom"))
        #expect(response["ErrorCode"] as? Int == 500)
        #expect((response["ErrorMessage"] as? String)?.contains("custom_events") == true)
        #expect(await bridge.call("getCurrentSlideName", guid: "after-boom")?["ErrorCode"] as? Int == 200)
        #expect(await bridge.process.finish() == 0)
    }

    // 14
    @Test func endOfInputFinishesShortWorkAnswersTheRest503AndExitsZero() async throws {
        let bridge = try await BridgeSession(["--module", BridgeSession.echoModule])
        bridge.process.send(json: ["Command": "echo.sleep", "Data": ["ms": 200], "GUID": "short"])
        bridge.process.send(json: ["Command": "echo.sleep", "Data": ["ms": 600_000], "GUID": "long"])
        #expect(await bridge.echoSleeps(pendingAtLeast: 1))
        // The long handler sleeps ten minutes: exiting within the limit means the host did not wait for it.
        #expect(await bridge.process.finish(timeout: 15) == 0)
        #expect(await bridge.process.response(to: "short", timeout: 0)?["ErrorCode"] as? Int == 200)
        #expect(await bridge.process.response(to: "long", timeout: 0)?["ErrorCode"] as? Int == 503)
    }

    // 15
    @Test func aReaderThatGoesAwayDoesNotCrashTheHost() async throws {
        let bridge = try await BridgeSession(output: .closed)
        for index in 0..<2_000 {
            bridge.process.send(#"{"Command":"getCurrentSlideName","GUID":"gone-\#(index)"}"#)
        }
        #expect(await bridge.process.finish() == 0)
    }

    @Test func aParentThatStopsReadingDoesNotKeepTheHostAliveAfterEndOfInput() async throws {
        let bridge = try await BridgeSession(output: .unread)
        for index in 0..<400 {  // about 1 KiB of answer each: far more than a pipe holds
            bridge.process.send(#"{"Command":"bridge.describe","GUID":"stall-\#(index)"}"#)
        }
        // A host stuck on its full stdout would never exit: `finish` would time out, kill it and report the
        // signal. How long the clean exit takes depends on the machine's load, so no wall time is asserted.
        #expect(await bridge.process.finish(timeout: 45) == 0)
        #expect(bridge.process.stderr.contains("stdout is not being read"))
    }

    // 16
    @Test func stdoutCarriesOnlyProtocolLinesWhileHandlersLogHeavily() async throws {
        let bridge = try await BridgeSession(["--module", BridgeSession.echoModule, "--verbose"])
        for index in 0..<20 {
            bridge.process.send(json: ["Command": "echo.log", "Data": ["lines": 200], "GUID": "log-\(index)"])
            bridge.process.send(json: [
                "Command": "go", "Data": ["slideName": index % 2 == 0 ? "slide1.html" : "index.html"],
                "GUID": "go-\(index)",
            ])
        }
        for index in 0..<20 {
            #expect(await bridge.process.response(to: "log-\(index)")?["ErrorCode"] as? Int == 200)
            #expect(await bridge.process.response(to: "go-\(index)")?["ErrorCode"] as? Int == 200)
        }
        #expect(await bridge.process.finish() == 0)
        #expect(bridge.process.stderr.contains("echo: log line 199"))
        for line in bridge.process.allLines {
            let message = try #require(BridgeProcess.object(line), "not JSON: \(line)")
            let keys = Set(message.keys)
            #expect(
                keys == ["GUID", "Status", "ErrorCode", "ErrorMessage", "Data"] || keys == ["Event", "Data"], "\(line)")
        }
    }

    // 17
    @Test(arguments: [
        #"{"Command":"getCurrentSlideName","Data":{},"GUID":"case-1"}"#,
        #"{"command":"getCurrentSlideName","data":{},"guid":"case-1"}"#,
        #"{"COMMAND":" getCurrentSlideName ","Guid":"case-1"}"#,
    ])
    func storyCLMKeysMatchInAnyCaseAndAnswersHaveStoryCLMsShape(line: String) async throws {
        let bridge = try await BridgeSession()
        bridge.process.send(line)
        let raw = try #require(await bridge.process.nextLine())
        #expect(
            raw
                == #"{"GUID":"case-1","Status":"Success","ErrorCode":200,"ErrorMessage":"","Data":{"slide":"index.html"}}"#
        )
        #expect(await bridge.process.finish() == 0)
    }

    @Test func aBatchLineRunsEachItemInOrder() async throws {
        let bridge = try await BridgeSession()
        bridge.process.send(
            #"[{"Command":"go","Data":{"slideName":"slide2.html"}},{"Command":"getCurrentSlideName","Data":{},"GUID":"b2"},{"Command":"bridge.ping","GUID":"b3"}]"#
        )
        let current = try #require(await bridge.process.response(to: "b2"))
        #expect((current["Data"] as? [String: Any])?["slide"] as? String == "slide2.html")
        #expect(await bridge.process.response(to: "b3")?["ErrorCode"] as? Int == 200)
        #expect(await bridge.process.event("slideChanged") != nil)
        bridge.process.send(
            "[" + Array(repeating: #"{"Command":"bridge.ping","GUID":"many"}"#, count: 101).joined(separator: ",") + "]"
        )
        let tooMany = try #require(await bridge.process.response(to: "many"))
        #expect(tooMany["ErrorCode"] as? Int == 400)
        #expect(await bridge.process.finish() == 0)
    }

    @Test func invalidGUIDsAreAnswered400WithANullGUID() async throws {
        let bridge = try await BridgeSession()
        for guid in ["42", #""has space""#, "\"" + String(repeating: "a", count: 129) + "\"", #""""#] {
            bridge.process.send(#"{"Command":"bridge.ping","GUID":\#(guid)}"#)
            let response = try #require(await bridge.process.nextMessage())
            #expect(response["GUID"] is NSNull, "\(guid)")
            #expect(response["ErrorCode"] as? Int == 400, "\(guid)")
        }
        bridge.process.send(#"{"Command":"bridge.ping","GUID":"a","guid":"b"}"#)
        #expect(await bridge.process.nextMessage()?["ErrorCode"] as? Int == 400)
        #expect(await bridge.process.finish() == 0)
    }

    @Test func describeListsModulesCommandsAndLimits() async throws {
        let bridge = try await BridgeSession(["--timeout-ms", "1500", "--max-in-flight", "8"])
        let data = try #require(await bridge.data("bridge.describe") as? [String: Any])
        let limits = try #require(data["limits"] as? [String: Int])
        #expect(limits["timeoutMs"] == 1500)
        #expect(limits["maxInFlight"] == 8)
        #expect(limits["maxBatchItems"] == 100)
        let modules = try #require(data["modules"] as? [[String: Any]])
        let names = modules.compactMap { $0["name"] as? String }
        #expect(
            names == [
                "bridge", "Base", "Presentation", "UI", "Sessions", "CustomEvents", "MediaFiles", "Map", "Version1",
                "HTTP", "OSAM", "Tables",
            ])
        #expect(await bridge.process.finish() == 0)
    }

    @Test func tooManyInFlightIsAnswered429() async throws {
        let bridge = try await BridgeSession(["--module", BridgeSession.echoModule, "--max-in-flight", "2"])
        for index in 0..<3 {
            bridge.process.send(json: ["Command": "echo.sleep", "Data": ["ms": 300], "GUID": "f\(index)"])
        }
        #expect(await bridge.process.response(to: "f2")?["ErrorCode"] as? Int == 429)
        #expect(await bridge.process.response(to: "f0")?["ErrorCode"] as? Int == 200)
        #expect(await bridge.process.response(to: "f1")?["ErrorCode"] as? Int == 200)
        #expect(await bridge.process.finish() == 0)
    }
}
