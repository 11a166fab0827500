import Foundation
import SCLMBridge
import SCLMBridgeModules
import SCLMBrowser
import SCLMCore
import SCLMStore

/// One `sclm play` run: a browser, one page, the bridge in it, until the content closes the
/// presentation, the page or browser dies, the time limit passes or the user interrupts.
///
/// The host and modules are those of `sclm bridge` (``Services/hostPage(_:presentationId:slide:siteHost:serverInfo:isolation:_:)``,
/// on the command's one ``Services`` scope: one curl engine across kiosk restarts); the session is left
/// unfinished unless the content closed the presentation, so a restarted run resumes it.
struct Player: Sendable {
    let presentationId: Int64
    let slide: String?
    let options: BrowserOptions
    let timeout: Duration?
    let failsOnError: Bool
    /// The command's services (store, configuration, the curl engine the HTTP and OSAM modules share).
    let services: Services

    private var context: CommandContext { services.context }

    /// Runs the presentation once and says how it ended.
    ///
    /// - Throws: ``BrowserError`` (`.unavailable`) without a browser; errors loading the presentation.
    func run() async throws -> PageBridge.Outcome {
        let context = context
        return try await Browser.withBrowser(options, environment: context.environment, logger: context.logger) {
            browser in
            let page = try await browser.newPage()
            let bridge = try PageBridge(
                page: page, mode: .play, failsOnUncaughtError: failsOnError,
                answersDialogs: options.mode == .headless, report: { issue in report(issue) },
                observe: { event in if context.wantsJSON { context.stdout.writeLine(event.jsonString) } },
                siteOfPresentation: { id in await site(of: id) })
            return try await services.hostPage(
                bridge, presentationId: presentationId, slide: slide, siteHost: Self.siteHost(of: presentationId),
                serverInfo: [
                    "name": "sclm", "version": .string(SCLMVersion.current), "presentationId": .int(presentationId),
                ]
            ) { host, _ in
                let outcome = await waitForEnd(of: bridge, browser: browser)
                // Not cancelled with the command (Ctrl-C): the slide on screen is still recorded.
                if outcome != .closed { await withCancellationShield { await host.finish() } }
                return outcome
            }
        }
    }

    /// Returns once the presentation is installed; until then (a kiosk before its first sync) says so once
    /// and looks again every `interval`, instead of failing into a restart loop.
    ///
    /// - Throws: store errors other than "not installed", `CancellationError`.
    func waitUntilInstalled(checkingEvery interval: Duration = .seconds(5)) async throws {
        let (store, home, id) = (try services.store(), context.home, presentationId)
        var announced = false
        while true {
            do {
                _ = try await store.read { db in try InstalledPresentation.load(id, from: db, home: home) }
                if announced { context.logger.info("presentation \(id) is installed; starting") }
                return
            } catch let error as SCLMError where error.category == .notFound {
                if !announced {
                    context.logger.warning(
                        "waiting for presentation \(id) to be installed by `sclm sync` (sclm-sync.service): "
                            + error.userMessage)
                    announced = true
                }
            }
            try await Task.sleep(for: interval)
        }
    }

    /// The private origin's host of a presentation.
    static func siteHost(of presentationId: Int64) -> String { "presentation-\(presentationId).sclm.invalid" }

    /// The package of presentation `id` when content opens it (the host has already loaded it to show it).
    private func site(of id: Int64) async -> PackageSite? {
        let home = context.home
        guard let store = try? services.store(),
            let presentation = try? await store.read({ db in try InstalledPresentation.load(id, from: db, home: home) })
        else { return nil }
        return PackageSite(host: Self.siteHost(of: id), root: presentation.sourcesDirectory)
    }

    /// Waits for the first of: the content closing, a crash, the browser exiting, the timeout, Ctrl-C.
    private func waitForEnd(of bridge: PageBridge, browser: Browser) async -> PageBridge.Outcome {
        let watchdogs = [
            Task { bridge.end(.crashed("the browser exited: \(await browser.waitUntilClosed())")) },
            Task {
                guard let timeout else { return }
                try await Task.sleep(for: timeout)
                bridge.end(.timedOut)
            },
        ]
        defer { for watchdog in watchdogs { watchdog.cancel() } }
        return await withTaskCancellationHandler {
            await bridge.waitForOutcome()
        } onCancel: {
            bridge.end(.interrupted)
        }
    }

    /// Prints a page issue (`--json`) or logs it.
    private func report(_ issue: PageIssue) {
        if context.wantsJSON {
            context.stdout.writeLine(issue.json.jsonString)
            return
        }
        switch issue {
        case .uncaughtError(let message, let url, let line):
            context.logger.warning("page error: \(message) (\(url ?? "?"):\(line.map(String.init) ?? "?"))")
        case .consoleError(let message, _, _):
            context.logger.warning("console.error: \(message)")
        case .missingFile(_, let path):
            context.logger.warning("the page asked for \(path), which the package lacks (answered 404)")
        case .remoteRequest(let url):
            context.logger.warning("refused a request to another host: \(url)")
        case .bridgeError(let command, let code, let message):
            context.logger.debug("\(command) answered \(code): \(message)")
        case .tooLarge(_, let path, let size, let limit):
            context.logger.warning(
                "the page asked for \(path) (\(PackageSite.mebibytes(size))) whole, without Range; "
                    + "answered 413 (whole answers stop at \(PackageSite.mebibytes(limit)))")
        case .dialog(let type, let message, let answered):
            context.logger.warning("the page opened \(type): \(message)\(answered ? " (answered OK)" : "")")
        case .messagesCut(let count, let bytes):
            context.logger.warning("\(count) more page messages of this slide (\(bytes) bytes) were cut")
        case .navigation, .crashed:
            break
        }
    }
}
