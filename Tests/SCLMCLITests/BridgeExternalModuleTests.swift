import Foundation
import SCLMCommands
import SCLMCore
import SCLMTestSupport
import Testing

/// `sclm bridge --module NAME=PROGRAM` with the example module `examples/bridge-modules/echo.py`.
@Suite(.tags(.large), .timeLimit(.minutes(2))) struct BridgeExternalModuleTests {
    @Test func commandsAreRoutedToTheModuleAndItsEventsForwarded() async throws {
        let bridge = try await BridgeSession(["--module", BridgeSession.echoModule])
        let said = try #require(await bridge.call("echo.say", ["hello": "мир", "n": 3]))
        #expect(said["ErrorCode"] as? Int == 200)
        #expect((said["Data"] as? [String: Any])?["hello"] as? String == "мир")
        let failed = try #require(await bridge.call("echo.fail", ["code": 418, "message": "teapot"]))
        #expect(failed["ErrorCode"] as? Int == 418)
        #expect(failed["ErrorMessage"] as? String == "teapot")
        #expect(await bridge.call("echo.event", ["name": "echoed", "data": ["x": 1]])?["ErrorCode"] as? Int == 200)
        #expect((await bridge.process.event("echoed")?["Data"] as? [String: Int]) == ["x": 1])
        let describe = try #require(await bridge.data("bridge.describe") as? [String: Any])
        let echo = (describe["modules"] as? [[String: Any]])?.first { $0["name"] as? String == "echo" }
        #expect((echo?["commands"] as? [String])?.contains("echo.sleep") == true)
        #expect(await bridge.process.finish() == 0)
    }

    @Test func aCrashAnswers502AndTheModuleIsRestarted() async throws {
        let bridge = try await BridgeSession(["--module", BridgeSession.echoModule])
        bridge.process.send(json: ["Command": "echo.sleep", "Data": ["ms": 600_000], "GUID": "in-flight"])
        #expect(await bridge.echoSleeps(pendingAtLeast: 1))
        let crashed = try #require(await bridge.call("echo.crash", guid: "crash"))
        #expect(crashed["ErrorCode"] as? Int == 502)
        #expect((crashed["ErrorMessage"] as? String)?.contains("module echo crashed") == true)
        #expect(await bridge.process.response(to: "in-flight")?["ErrorCode"] as? Int == 502)
        #expect(await waitForModule(bridge), "the module was not restarted: \(bridge.process.stderr)")
        #expect(await bridge.process.finish() == 0)
        #expect(bridge.process.stderr.contains("module echo crashed (exit status 3); restarting"))
    }

    @Test func repeatedCrashesMakeTheHostGiveUpOnTheModule() async throws {
        let bridge = try await BridgeSession(["--module", BridgeSession.echoModule])
        for attempt in 1...5 {
            #expect(await bridge.call("echo.crash", guid: "crash-\(attempt)")?["ErrorCode"] as? Int == 502)
            if attempt < 5 { #expect(await waitForModule(bridge), "restart \(attempt)") }
        }
        // The fifth crash may still be settling: ask until the answer is the give-up (or the hang guard).
        let deadline = Date().addingTimeInterval(HangGuard.seconds)
        var refused: [String: Any]?
        repeat {
            refused = await bridge.call("echo.say")
        } while (refused?["ErrorMessage"] as? String)?.contains("crashed 5 times") != true && Date() < deadline
        #expect(refused?["ErrorCode"] as? Int == 502)
        #expect((refused?["ErrorMessage"] as? String)?.contains("crashed 5 times") == true)
        #expect(await bridge.call("getCurrentSlideName")?["ErrorCode"] as? Int == 200)
        #expect(await bridge.process.finish() == 0)
        #expect(bridge.process.stderr.contains("giving up"))
    }

    @Test func aModuleThatClashesWithABuiltInCommandStopsStartUp() async throws {
        let folder = TemporaryDirectory()
        let script = try folder.write(
            """
            import json, sys
            for line in sys.stdin:
                m = json.loads(line)
                print(json.dumps({"GUID": m.get("GUID"), "Status": "Success", "ErrorCode": 200, "ErrorMessage": "",
                                  "Data": {"commands": ["go"]}}), flush=True)
            """, to: "clash.py")
        let home = Home(root: folder.appending("home"))
        try InstalledPresentationFixture().install(in: home)
        let result = try await ProcessRunner.sclm(
            ["bridge", "--presentation", "10", "--module", "clash=python3 \(script)"], home: home.root)
        #expect(result.status == 64)
        #expect(result.stderr.contains("command go is declared by both Base and clash"))
        #expect(result.stdout.isEmpty)
    }

    @Test func aProgramThatIsNotABridgeModuleIsRefusedClearly() async throws {
        let folder = TemporaryDirectory()
        let home = Home(root: folder.appending("home"))
        try InstalledPresentationFixture().install(in: home)
        let result = try await ProcessRunner.sclm(
            ["bridge", "--presentation", "10", "--module", "cat=/bin/true"], home: home.root)
        #expect(result.status == 64)
        #expect(result.stderr.contains("did not answer bridge.describe"))
    }

    @Test func modulesDoNotInheritSecretVariablesButKeepTheRest() async throws {
        let folder = TemporaryDirectory()
        let script = try folder.write(EnvironmentReportingModule.script, to: "env.py")
        let secrets = SettingsCatalog.all.filter(\.isSecret).compactMap(\.environmentVariable)
        #expect(
            Set(secrets).isSuperset(of: [
                "SCLM_PASSWORD", "SCLM_CLIENT_SECRET", "SCLM_IOT_SECRET", "SCLM_OSAM_PASSWORD",
            ]))
        var environment = Dictionary(uniqueKeysWithValues: secrets.map { ($0, "hunter2-\($0)") })
        environment["LANG"] = "C.UTF-8"
        environment["SCLM_API_URL"] = "http://127.0.0.1:9/"
        environment["https_proxy"] = "http://proxyuser:hunter2-proxy@proxy.example:3128"
        let bridge = try await BridgeSession(["--module", "env=python3 \(script)"], environment: environment)
        let seen = try #require(await bridge.data("env.report") as? [String: String])
        for name in secrets { #expect(seen[name] == nil, "\(name) reached the module") }
        #expect(!seen.values.contains { $0.hasPrefix("hunter2") })
        #expect(seen["LANG"] == "C.UTF-8")
        #expect(seen["SCLM_API_URL"] == "http://127.0.0.1:9/")
        #expect(seen["https_proxy"] == "http://proxyuser@proxy.example:3128", "the proxy without its password")
        #expect(seen["PATH"] != nil && seen["HOME"] != nil)
        #expect(await bridge.process.finish() == 0)
    }

    /// Polls `echo.say` until the restarted module answers (up to 5 s).
    private func waitForModule(_ bridge: BridgeSession) async -> Bool {
        for _ in 0..<100 {
            if await bridge.call("echo.say", ["ping": true])?["ErrorCode"] as? Int == 200 { return true }
            try? await Task.sleep(for: .milliseconds(50))
        }
        return false
    }
}
