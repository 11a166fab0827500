import Foundation
import SCLMCore
import SCLMTestSupport
import Testing

/// `sclm bridge` runs one libcurl engine for all its transports: the HTTP module's, OSAM's and the API's.
@Suite(.tags(.large), .timeLimit(.minutes(1))) struct BridgeEngineTests {
    /// The engine thread's name, as the engine sets it (`CurlEngine.threadName`).
    static let engineThreadName = "sclm.curl"

    /// The names of the threads of process `pid`, one per `/proc/<pid>/task/<tid>/comm`.
    static func threadNames(in pid: Int32) throws -> [String] {
        let listing = try ProcessRunner.run("/bin/sh", ["-c", "cat /proc/\(pid)/task/*/comm"])
        return listing.stdout.split(separator: "\n").map(String.init)
    }

    @Test func oneEngineThreadServesTheHTTPModuleOSAMAndTheAnalyticsFlush() async throws {
        let server = try DevServer(["--quiet"])
        let web = try ServerProcess(script: "Tests/Fixtures/http_fixture.py")
        let folder = TemporaryDirectory(prefix: "sclm-bridge-engine")
        let home = Home(root: folder.appending("home"))
        try InstalledPresentationFixture().install(in: home)
        let settings = [
            ("osam.endpoint", server.url.absoluteString), ("osam.package", "cat.bcn.engine"), ("osam.platform", "IOS"),
            ("osam.versionCode", "7"), ("osam.versionName", "2.0.0"), ("bridge.httpAllowedHosts", "127.0.0.1"),
            ("bridge.flushInterval", "1"),
        ]
        for (key, value) in settings {
            #expect(try await ProcessRunner.sclm(["config", "set", key, value], home: home.root).status == 0)
        }
        // StoryIoT configured: the background flush holds the API transport while the bridge is up.
        let bridge = try BridgeProcess(
            sclm: ["bridge", "--presentation", "10"], home: home.root, environment: server.iotEnvironment)
        guard await bridge.event("slideChanged") != nil else {
            throw SCLMError(.internal, "bridge did not start: \(bridge.stderr)")
        }
        let http = UUID().uuidString
        bridge.send(json: ["Command": "httpget", "Data": ["url": web.url.absoluteString + "/json"], "GUID": http])
        let httpAnswer = try #require(await bridge.response(to: http), "no answer: \(bridge.stderr)")
        #expect(httpAnswer["ErrorCode"] as? Int == 200, "\(httpAnswer)")
        let osam = UUID().uuidString
        bridge.send(json: ["Command": "osam.versionControl", "Data": ["language": "en"], "GUID": osam])
        let osamAnswer = try #require(await bridge.response(to: osam), "no answer: \(bridge.stderr)")
        #expect(osamAnswer["ErrorCode"] as? Int == 200, "\(osamAnswer)")

        let names = try Self.threadNames(in: bridge.pid)
        #expect(names.count { $0 == Self.engineThreadName } == 1, "threads: \(names)")
        #expect(await bridge.finish() == 0)
    }
}
