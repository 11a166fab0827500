import Foundation
import SCLMCore

/// A temporary home with an installed presentation and a running `sclm bridge` on it.
package final class BridgeSession {
    package let folder = TemporaryDirectory(prefix: "sclm-bridge")
    package let home: Home
    package let fixture: InstalledPresentationFixture
    package private(set) var process: BridgeProcess

    /// The example external module, run with the system Python.
    package static let echoModule = "echo=python3 \(ProcessRunner.packageRoot)/examples/bridge-modules/echo.py"

    /// Installs `fixtures` (the first is opened), stores `settings` with `sclm config set` and starts the
    /// bridge with `arguments`, then reads the two start-up events (`presentationOpened`, `slideChanged`).
    package init(
        _ arguments: [String] = [], fixtures: [InstalledPresentationFixture] = [InstalledPresentationFixture()],
        environment: [String: String] = [:], output: BridgeProcess.OutputHandling = .read, login: Bool = false,
        settings: [String: String] = [:]
    ) async throws {
        home = Home(root: folder.appending("home"))
        fixture = fixtures[0]
        for fixture in fixtures { try fixture.install(in: home) }
        for (key, value) in settings {
            let set = try await ProcessRunner.sclm(["config", "set", key, value], home: home.root)
            guard set.status == 0 else { throw SCLMError(.internal, "sclm config set \(key) failed: \(set.stderr)") }
        }
        if login { try InstalledPresentationFixture.logIn(subject: "user-42", userName: "anna@example.com", in: home) }
        process = try BridgeSession.start(
            arguments, home: home, presentationId: fixture.presentationId, environment: environment, output: output)
        if output == .read { opened = try await takeStartEvents() }
    }

    /// The `presentationOpened` event of the current run.
    package private(set) var opened: [String: Any] = [:]

    private func takeStartEvents() async throws -> [String: Any] {
        guard let opened = await process.event("presentationOpened"), await process.event("slideChanged") != nil else {
            throw SCLMError(.internal, "the bridge did not start: \(process.stderr)")
        }
        return opened
    }

    /// Starts another bridge run on the same home (after the previous one ended).
    package func restart(_ arguments: [String] = []) async throws {
        process = try BridgeSession.start(
            arguments, home: home, presentationId: fixture.presentationId, environment: [:], output: .read)
        opened = try await takeStartEvents()
    }

    private static func start(
        _ arguments: [String], home: Home, presentationId: Int64, environment: [String: String],
        output: BridgeProcess.OutputHandling
    ) throws -> BridgeProcess {
        try BridgeProcess(
            sclm: ["bridge", "--presentation", String(presentationId)] + arguments, home: home.root,
            environment: environment, output: output)
    }

    /// Sends a request and returns its response.
    package func call(
        _ command: String, _ data: [String: Any] = [:], guid: String = UUID().uuidString,
        timeout: TimeInterval = HangGuard.seconds
    ) async -> [String: Any]? {
        process.send(json: ["Command": command, "Data": data, "GUID": guid])
        return await process.response(to: guid, timeout: timeout)
    }

    /// Waits until the echo module holds at least `count` unanswered `echo.sleep` requests (so the host has
    /// sent them on), asking it with `echo.pending` until the ``HangGuard``.
    ///
    /// - Returns: whether it got there in time.
    package func echoSleeps(pendingAtLeast count: Int) async -> Bool {
        let deadline = Date().addingTimeInterval(HangGuard.seconds)
        while Date() < deadline {
            let data = await self.data("echo.pending") as? [String: Any]
            if let pending = data?["pending"] as? Int, pending >= count { return true }
        }
        return false
    }

    /// Has the echo module answer every pending `echo.sleep` now; the late answers reach the host before
    /// this call's own answer does.
    ///
    /// - Returns: how many it answered.
    package func wakeEchoSleeps() async -> Int? {
        (await data("echo.wake") as? [String: Any])?["woken"] as? Int
    }

    /// Sends a notification (no GUID).
    package func notify(_ command: String, _ data: [String: Any] = [:]) {
        process.send(json: ["Command": command, "Data": data])
    }

    /// The `Data` of a successful response.
    package func data(_ command: String, _ data: [String: Any] = [:]) async -> Any? {
        guard let response = await call(command, data), response["ErrorCode"] as? Int == 200 else { return nil }
        return response["Data"]
    }

    /// Runs SQL against the home's database from another process (``ProcessRunner/sql(_:in:)``).
    package func sql(_ query: String) throws -> String {
        try ProcessRunner.sql(query, in: home.databasePath)
    }
}
