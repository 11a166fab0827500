import SCLMBridge
import SCLMCore
import SCLMTestSupport
import Testing

/// A module declared the one way: each command with its handler.
struct Clock: DeclaredBridgeModule {
    let name = "Clock"
    let now: Int64

    /// `{ms}`.
    struct SleepParameters: Decodable {
        let ms: Int64
    }

    static let declarations: BridgeCommandDeclarations<Clock> = [
        .immediate("clock.now") { clock, _ in .ok(["now": .int(clock.now)]) },
        .deferred("clock.sleep", parameters: SleepParameters.self, timeout: .seconds(5)) { _, parameters, _ in
            .ok(["slept": .int(parameters.ms)])
        },
    ]
}

@Suite(.tags(.small)) struct DeclaredBridgeModuleTests {
    @Test func theCommandListIsTheDeclarations() {
        let clock = Clock(now: 7)
        #expect(clock.commands == [BridgeCommand("clock.now"), BridgeCommand("clock.sleep", timeout: .seconds(5))])
    }

    @Test func anImmediateCommandIsAnsweredAtOnceAndADeferredOneIsNot() throws {
        let clock = Clock(now: 7)
        #expect(try clock.reply(immediatelyTo: BridgeRequest(command: "clock.now")) == .ok(["now": 7]))
        #expect(try clock.reply(immediatelyTo: BridgeRequest(command: "clock.sleep", data: ["ms": 1])) == nil)
    }

    @Test func anUndeclaredCommandIs404() {
        let error = #expect(throws: BridgeError.self) {
            try Clock(now: 7).reply(immediatelyTo: BridgeRequest(command: "clock.later"))
        }
        #expect(error?.code == .notFound)
    }

    @Test func theServerRunsBothKindsAndDecodesParameters() async throws {
        let server = try ServerHarness([Clock(now: 7)])
        #expect(await server.call("clock.now", guid: "n")?["Data"] as? [String: Int] == ["now": 7])
        #expect(
            await server.call("clock.sleep", guid: "s", data: #"{"ms":3}"#)?["Data"] as? [String: Int] == ["slept": 3])
        let bad = await server.call("clock.sleep", guid: "b", data: #"{"ms":"x"}"#)
        #expect(bad?["ErrorCode"] as? Int == 400)
        #expect((bad?["ErrorMessage"] as? String)?.hasPrefix("bad Data for clock.sleep") == true)
        await server.finish()
    }
}
