import Foundation
import SCLMArchive
import SCLMBridge
import SCLMBridgeModules
import SCLMBrowser
import SCLMCore
import Synchronization

/// Renders one slide on a page of a shared browser (in its package's browser context, from its
/// ``PagePool``), with a presentation host of its own whose current slide is that slide, and collects what
/// the page did as findings.
///
/// The slide loads, settles and is pictured holding one of the run's loading permits; then it gives the
/// permit back and keeps listening for its late window (``SlideWatch``), so the windows of many slides
/// overlap and a run pays the window about once. Every slide ends with a ``SlideStatus``: rendered, or a
/// finding that says why not (`RENDER-TIMEOUT` with its phase, `RENDER-CRASHED`, `RENDER-NOT-REACHED`).
package struct SlideRenderer: Sendable {
    /// How long a slide may take to load and settle, how quiet "settled" is, how long its late errors are
    /// heard, and how long a loaded page's script may stay silent before it counts as stuck.
    package struct Limits: Sendable {
        /// How long a slide may take to load and settle (`--render-timeout`).
        var timeout: Duration
        /// How long without requests or bridge calls counts as settled.
        var quiet: Duration = .milliseconds(300)
        /// How long after its last frame or worker started a slide's errors are still heard (`--render-settle`).
        var window: Duration
        /// How long a loaded page may leave a trivial evaluation unanswered before it counts as stuck: the
        /// slide's own `--render-timeout`, at least 10 s. A page starved of CPU on a loaded machine (large files
        /// streaming in beside two busy loops, or a clean slide while `make test` runs other suites) went 5 s
        /// without an answer; a page whose script never yields never answers, so a longer wait only costs a
        /// broken slide time.
        var busy: Duration
        /// How often a loaded page is asked whether it still answers.
        var probeInterval: Duration = .seconds(1)
        /// How long a screenshot may take: longer than a stuck page elsewhere in the browser can hold up
        /// pictures before its guard ends it (``SlideWatch``).
        var screenshot: Duration

        /// The limits with a slide's loading and settling bounded by `timeout` and its late window `window`
        /// (`--render-settle`), the others following from them.
        package init(timeout: Duration, window: Duration = .seconds(3)) {
            self.timeout = timeout
            self.window = window
            busy = max(.seconds(10), timeout)
            screenshot = busy + .seconds(10)
        }
    }

    let browser: Browser
    /// The pages of the slide's package's browser context.
    let pages: PagePool
    /// The hosting of the throwaway home (``RenderHome``): its store, configuration and curl engine.
    let hosting: any PresentationHosting
    let limits: Limits
    /// Whether pictures are settled first (``RenderPass/pictures``).
    var pass: RenderPass = .findings

    /// What one slide produced.
    struct Result: Sendable {
        var status: SlideStatus
        var findings: [Finding]
        /// Its picture, only when it was rendered and one was asked for, until it is written.
        var screenshot: Data?
        /// Where its picture was written, relative to the screenshots folder.
        var image: String? = nil

        /// A slide the run never rendered, for `reason`.
        static func notReached(_ slide: String, _ reason: String) -> Result {
            Result(
                status: .notReached, findings: [Finding(.renderNotReached, path: slide, message: reason)],
                screenshot: nil)
        }
    }

    /// Loads `slide` of presentation `presentationId` once a `loading` permit is free, waits for it to settle,
    /// takes a screenshot when asked, gives the permit back and waits out the slide's late window.
    ///
    /// - Throws: store errors; `CancellationError` when cancelled (the findings so far would be incomplete).
    func render(_ slide: String, presentationId: Int64, screenshot: Bool, loading: AsyncSemaphore) async throws
        -> Result
    {
        let permit = try await loading.permit()
        defer { permit.release() }
        let page: BrowserPage
        do {
            page = try await pages.take()
        } catch let error as BrowserError {
            return .notReached(slide, "not rendered: \(error.message)")
        }
        let issues = Mutex<[PageIssue]>([])
        let bridge = PageBridge(
            page: page, mode: .render, report: { issue in issues.withLock { $0.append(issue) } })
        let started = ContinuousClock.now
        let outcome: Swift.Result<(SlideWatch.Ending, PackageSite), BrowserError>
        do {
            outcome = .success(
                try await hosting.hostPage(
                    bridge, presentationId: presentationId, slide: slide, siteHost: "package.sclm.invalid"
                ) { _, site in
                    let watch = SlideWatch(slide: slide, page: page, bridge: bridge, limits: limits, pass: pass)
                    return (await watch.run(screenshot: screenshot, pictured: { permit.release() }), site)
                })
        } catch let error as BrowserError {
            outcome = .failure(error)
        }
        // Only a rendered slide's page serves the next slide.
        if case .success((.rendered, _)) = outcome, !Task.isCancelled {
            await pages.giveBack(page)
        } else {
            await pages.discard(page)
        }
        try Task.checkCancellation()
        hosting.logger.debug("rendered \(slide) in \((ContinuousClock.now - started).secondsText) s")
        switch outcome {
        case .success(let (ending, site)):
            let findings = issues.withLock { $0 }.compactMap { issue in
                RenderFindings.finding(for: issue, slide: slide) { url in url.flatMap { site.packagePath(of: $0) } }
            }
            return Self.result(of: ending, slide: slide, findings: findings)
        case .failure(let error):
            if browser.isClosed { return .notReached(slide, "not rendered: \(error.message)") }
            return Self.result(of: .crashed(error.message), slide: slide, findings: [])
        }
    }

    /// The result of a slide whose render ended with `ending`, with the findings of what its page did.
    static func result(of ending: SlideWatch.Ending, slide: String, findings: [Finding]) -> Result {
        switch ending {
        case .rendered(let image):
            return Result(status: .rendered, findings: unique(findings), screenshot: image)
        case .timedOut(let phase, let message):
            let finding = Finding(.renderTimeout, path: slide, message: "\(phase.rawValue): \(message)")
            return Result(status: .timedOut(phase), findings: unique(findings + [finding]), screenshot: nil)
        case .crashed(let reason):
            let finding = Finding(.renderCrashed, path: slide, message: reason)
            return Result(status: .crashed, findings: unique(findings + [finding]), screenshot: nil)
        }
    }

    private static func unique(_ findings: [Finding]) -> [Finding] {
        var seen = Set<Finding>()
        return findings.filter { seen.insert($0).inserted }
    }
}
