import Foundation
import SCLMCore
import Synchronization

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// One running Chromium, owned by a ``withBrowser(_:environment:logger:_:)`` scope.
///
/// The scope starts the browser with a fresh temporary profile, speaks DevTools over its pipe, and when
/// the body returns or throws kills the browser's process group and removes the profile. A browser that
/// dies while in use fails every pending call (``BrowserError/Code/crashed``) and resumes
/// ``waitUntilClosed()``, so a crash is an error and never a hang.
///
/// ```swift
/// try await Browser.withBrowser(BrowserOptions()) { browser in
///     let page = try await browser.newPage()
///     try await page.navigate(to: "https://package.sclm.invalid/index.html")
/// }
/// ```
package final class Browser: Sendable {
    /// The options it was started with.
    package let options: BrowserOptions
    /// The process sclm started (the browser, or the `setpriv` that became it): the root of its process tree.
    package let processId: pid_t
    let connection: DevToolsConnection
    /// Attaches to every target the browser creates.
    let targets: TargetAttacher
    /// One tab at a time brought to the front for its picture (``BrowserPage/screenshot(deadline:)``).
    private let pictures = AsyncSemaphore(limit: 1)
    private let closed = Latch<String>()

    private init(options: BrowserOptions, processId: pid_t, connection: DevToolsConnection) {
        self.options = options
        self.processId = processId
        self.connection = connection
        targets = TargetAttacher(connection: connection, viewport: options.viewport)
    }

    /// Runs `body` with a started browser and always tears it down afterwards.
    ///
    /// When sclm runs as root, the browser runs as `nobody` through `setpriv` (Chromium's sandbox
    /// refuses root); without `setpriv` or `nobody` it runs with `--no-sandbox` and a warning is logged.
    /// It runs in a network namespace of its own (``BrowserSandbox``), and every target it creates is
    /// intercepted (``TargetAttacher``).
    ///
    /// - Throws: ``BrowserError`` (`.unavailable`) when no browser can be found, a kiosk has no display,
    ///   or the browser will not start (in its own words), and what `body` throws.
    package static func withBrowser<T>(
        _ options: BrowserOptions, environment: [String: String] = ProcessInfo.processInfo.environment,
        logger: Logger = Logger(), isolation: isolated (any Actor)? = #isolation, _ body: (Browser) async throws -> T
    ) async throws -> T {
        signal(SIGPIPE, SIG_IGN)
        let executable = try options.resolvedExecutable(path: environment["PATH"] ?? "/usr/local/bin:/usr/bin:/bin")
        let sandbox = BrowserSandbox.current()
        if let problem = options.displayProblem(environment: environment, isolatesNetwork: sandbox.isolatesNetwork) {
            throw BrowserError(.unavailable, problem)
        }
        for warning in sandbox.warnings { logger.warning(warning) }
        logger.debug("starting the browser: \((sandbox.prefix + [executable]).joined(separator: " "))")
        let profile = try makeProfile(owner: sandbox.owner)
        defer { try? FileManager.default.removeItem(atPath: profile) }
        if let kept = options.keptStorage { try KeptStorage.restore(from: kept, into: profile, owner: sandbox.owner) }
        let process = try await BrowserProcess.spawn(
            sandbox.prefix + [executable] + sandbox.flags + options.flags
                + options.displayFlags(environment: environment)
                + (sandbox.isolatesNetwork ? [] : BrowserOptions.networkOffFlags) + [
                    "--user-data-dir=\(profile)", "about:blank",
                ],
            environment: browserEnvironment(environment, profile: profile), showLogs: options.showsBrowserLogs)
        let browser = Browser(
            options: options, processId: process.pid, connection: DevToolsConnection(commands: process.commands))
        process.connect(browser.connection) { [closed = browser.closed, targets = browser.targets] in
            closed.fire($0)
            targets.close()
        }
        do {
            _ = try await browser.connection.call("Browser.getVersion")
        } catch {
            await process.kill(stopping: browser.connection)
            if error is CancellationError { throw error }
            let reason = await process.log.reason() ?? error.userMessage
            throw BrowserError(.unavailable, "\(executable) did not start: \(reason)")
        }
        do {
            try await browser.targets.start()
            let result = try await body(browser)
            await browser.end(process, profile: profile, logger: logger)
            return result
        } catch {
            await browser.end(process, profile: profile, logger: logger)
            throw error
        }
    }

    /// Opens a new tab (`about:blank`) in browser context `context` (the default one when `nil`; see
    /// ``withContext(isolation:_:)``), attached in flatten mode by ``TargetAttacher``.
    ///
    /// - Throws: ``BrowserError``.
    package func newPage(in context: String? = nil) async throws -> BrowserPage {
        var target: [String: JSONValue] = ["url": "about:blank"]
        if let context { target["browserContextId"] = .string(context) }
        let created = try await connection.call("Target.createTarget", .object(target))
        guard let targetId = created["targetId"]?.stringValue else {
            throw BrowserError(.protocolError, "Target.createTarget returned no targetId")
        }
        guard let sessionId = await targets.claim(targetId) else {
            throw BrowserError(.crashed, "the browser exited")
        }
        // Paused on start like every new target (``TargetAttacher``); `about:blank` needs nothing more.
        connection.send("Runtime.runIfWaitingForDebugger", session: sessionId)
        return BrowserPage(
            connection: connection, targetId: targetId, sessionId: sessionId, viewport: options.viewport,
            targets: targets, pictures: pictures)
    }

    /// Waits until the browser's pipe ends (it exited or crashed) and returns why.
    package func waitUntilClosed() async -> String {
        await closed.wait()
    }

    /// Whether the browser has gone away.
    package var isClosed: Bool { closed.isFired }

    /// A fresh profile folder (0700, owned by whoever runs the browser); profiles of killed runs are swept.
    ///
    /// It goes in `$TMPDIR`, unless the browser's user (`nobody`, when sclm runs as root) cannot get
    /// there — a `TMPDIR` inside a 0700 folder, say — when it goes in `/tmp`, where it can.
    private static func makeProfile(owner: (uid: uid_t, gid: gid_t)?) throws -> String {
        var base = ScratchFolder.temporaryDirectory
        if let owner, !FolderAccess.canTraverse(base, uid: owner.uid, gid: owner.gid) { base = "/tmp" }
        let path = try ScratchFolder.make(prefix: "sclm-browser-", in: base)
        if let owner { _ = chown(path, owner.uid, owner.gid) }
        BrowserPreferences.write(into: path, owner: owner)
        return path
    }

    /// What the browser sees of sclm's environment: its own HOME and TMPDIR (the profile) and the display
    /// variables.
    ///
    /// Chromium keeps its singleton socket in a folder of its own under TMPDIR and removes it only when it
    /// exits by itself; sclm kills it, so under `/tmp` every run would leave one behind. Inside the profile
    /// it goes with the profile, unless that path is too long for a socket address (108 bytes, with the
    /// ~45 Chromium adds).
    private static func browserEnvironment(_ environment: [String: String], profile: String) -> [String: String] {
        var result = [
            "HOME": profile, "PATH": environment["PATH"] ?? "/usr/bin:/bin", "LANG": environment["LANG"] ?? "C.UTF-8",
        ]
        if profile.utf8.count <= 60 { result["TMPDIR"] = profile }
        for key in ["DISPLAY", "WAYLAND_DISPLAY", "XDG_RUNTIME_DIR", "XAUTHORITY", "TZ"] {
            if let value = environment[key] { result[key] = value }
        }
        return result
    }
}
