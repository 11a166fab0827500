import Foundation
import SCLMBridge
import SCLMCore
import SCLMTestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// Stopping a module whose program has just crashed leaves no program running: the restart that waits out
/// its backoff, or is starting the program, is given up and waited for, a program started as the stop came
/// is ended at once, and the supervision returns (its task group would otherwise never end). A stop that hangs
/// is caught by the time limit, a guard only: each round starts Python twice, which beside a loaded machine's
/// other suites took 3 s a round.
@Suite(.tags(.medium), .timeLimit(.minutes(3))) struct ExternalModuleStopTests {
    /// A module that notes its process id in the file it is given and exits 3 on `crasher.crash`.
    static let script = """
        import json, os, sys
        with open(sys.argv[1], "a") as f:
            f.write(str(os.getpid()) + "\\n")
        for line in sys.stdin:
            m = json.loads(line)
            if m.get("Command") == "crasher.crash":
                sys.exit(3)
            print(json.dumps({"GUID": m.get("GUID"), "Status": "Success", "ErrorCode": 200, "ErrorMessage": "",
                              "Data": {"commands": ["crasher.crash"]}}), flush=True)
        """

    @Test func stoppingAModuleAsItCrashesLeavesNoProgramRunning() async throws {
        let folder = TemporaryDirectory(prefix: "sclm-module-stop")
        let script = try folder.write(Self.script, to: "crasher.py")
        let pids = folder.appending("pids")
        let environment = ChildEnvironment(ProcessInfo.processInfo.environment, withholding: [])
        let logger = Logger(minimumLevel: .error)
        var policy = ExternalModule.RestartPolicy()
        // Each backoff of 0–3 ms twice; many more under `make soak`.
        let rounds = Soak.iterations(8, soak: 40)
        for round in 0..<rounds {
            // 0–3 ms: the restart races the stop that follows the crash.
            policy.initialBackoff = .milliseconds(round % 4)
            let output = BridgeOutput(lines: LineQueue())
            let module = try await ExternalModule.start(
                name: "crasher", program: "python3 \(script) \(pids)", environment: environment, output: output,
                logger: logger, policy: policy)
            // As in a bridge run: the module's supervision is a child of the group that stops it.
            await withDiscardingTaskGroup { group in
                group.addTask { await module.supervise() }
                let crash = try? await module.handle(
                    BridgeRequest(command: "crasher.crash", guid: "crash"),
                    context: BridgeContext(guid: "crash", output: output, logger: logger))
                #expect(crash == nil, "the crash is answered with an error")
                await module.stop()
            }
            await output.close()
        }
        // A program restarted behind a stop would still be running: its stdin never closes.
        try await Task.sleep(for: .milliseconds(500))
        let started = try String(contentsOfFile: pids, encoding: .utf8).split(separator: "\n").compactMap {
            pid_t($0)
        }
        #expect(started.count >= rounds)
        let running = started.filter { kill($0, 0) == 0 }
        #expect(running.isEmpty, "programs left running after their module stopped: \(running)")
        for pid in running { kill(pid, SIGKILL) }
    }
}
