import Foundation
import SCLMBridge
import SCLMCore
import SCLMTestSupport
import Testing

@testable import SCLMCommands

/// An external module started from the environment the composition root hands down gets none of sclm's
/// secrets — however the command was entered (here: a context built directly, with no runner and no
/// catalog registration before it) — and keeps what it needs, the proxy's host and port among them.
@Suite(.tags(.medium)) struct ModuleEnvironmentTests {
    @Test func aModuleStartedFromTheContextSeesNoSecretAndNoProxyPassword() async throws {
        let folder = TemporaryDirectory(prefix: "sclm-module-environment")
        let script = try folder.write(EnvironmentReportingModule.script, to: "env.py")
        var environment = [
            "SCLM_PASSWORD": "hunter2-password", "SCLM_CLIENT_SECRET": "hunter2-client",
            "https_proxy": "http://proxyuser:hunter2-proxy@proxy.example:3128",
            "PATH": ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin", "LANG": "C.UTF-8",
        ]
        environment["SCLM_API_URL"] = "http://127.0.0.1:9/"
        let context = CommandContext(
            globals: GlobalOptions(), environment: environment, commandPath: ["sclm", "bridge"],
            terminal: TerminalInfo(isStdoutTerminal: false, usesColor: false, columns: 80))
        let output = BridgeOutput(lines: LineQueue())
        let module = try await ExternalModule.start(
            name: "env", program: "python3 \(script)", environment: context.childEnvironment, output: output,
            logger: context.logger)
        let reply = try await module.handle(
            BridgeRequest(command: "env.report", guid: "1"),
            context: BridgeContext(guid: "1", output: output, logger: context.logger))
        await module.stop()
        let seen = try #require(reply.data.objectValue).compactMapValues(\.stringValue)
        #expect(seen["SCLM_PASSWORD"] == nil && seen["SCLM_CLIENT_SECRET"] == nil)
        #expect(!seen.values.contains { $0.contains("hunter2") }, "no secret reaches the module")
        #expect(seen["https_proxy"] == "http://proxyuser@proxy.example:3128", "the proxy's host and port do")
        #expect(seen["SCLM_API_URL"] == "http://127.0.0.1:9/" && seen["LANG"] == "C.UTF-8")
    }
}
