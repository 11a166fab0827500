import Foundation
import SCLMArchive
import SCLMBridge
import SCLMBridgeModules
import SCLMBrowser
import SCLMCore
import Synchronization

/// Renders one slide on a fresh page of a shared browser (in its package's browser context), with a
/// presentation host of its own whose current slide is that slide, and collects what the page did as
/// findings. Every browser call has a deadline, so a stuck renderer costs a slide its screenshot and
/// gives it `RENDER-TIMEOUT`, and the run goes on.
package struct SlideRenderer: Sendable {
    /// How long a slide may take to settle, how quiet "settled" is, and how long after load errors are
    /// still heard.
    package struct Limits: Sendable {
        /// How long a slide may take to settle (`--render-timeout`).
        var timeout: Duration = .seconds(10)
        var quiet: Duration = .milliseconds(300)
        var settle: Duration = .seconds(1)
        /// How long a screenshot may take (a stuck renderer never paints).
        var screenshot: Duration = .seconds(5)

        /// The limits with a slide's settling bounded by `timeout` and errors heard until `settle` after load
        /// (`--render-settle`), the others their defaults.
        package init(timeout: Duration, settle: Duration = .seconds(1)) {
            self.timeout = timeout
            self.settle = settle
        }
    }

    let browser: Browser
    /// The browser context of the slide's package.
    let browserContext: String
    /// The hosting of the throwaway home (``RenderHome``): its store, configuration and curl engine.
    let hosting: any PresentationHosting
    let limits: Limits

    /// What one slide produced.
    struct Result: Sendable {
        var findings: [Finding]
        var screenshot: Data?
    }

    /// Loads `slide` of presentation `presentationId`, waits for it to settle and takes a screenshot when asked.
    ///
    /// - Throws: ``BrowserError`` when the browser fails; store errors; `CancellationError` when cancelled
    ///   (the findings so far would be incomplete).
    func render(_ slide: String, presentationId: Int64, screenshot: Bool) async throws -> Result {
        let page = try await browser.newPage(in: browserContext)
        let issues = Mutex<[PageIssue]>([])
        let bridge = PageBridge(
            page: page, mode: .render, report: { issue in issues.withLock { $0.append(issue) } })
        let (settled, image, site) = try await hosting.hostPage(
            bridge, presentationId: presentationId, slide: slide, siteHost: "package.sclm.invalid"
        ) { _, site in
            let settled = await waitUntilSettled(bridge)
            try Task.checkCancellation()
            return (settled, screenshot ? try? await page.screenshot(deadline: limits.screenshot) : nil, site)
        }
        await withCancellationShield { await page.close() }
        try Task.checkCancellation()
        var findings = issues.withLock { $0 }.compactMap { issue in
            RenderFindings.finding(for: issue, slide: slide) { url in url.flatMap { site.packagePath(of: $0) } }
        }
        if !settled {
            findings.append(
                Finding(
                    .renderTimeout, path: slide, message: "still loading or busy after \(limits.timeout.inSeconds) s"))
        }
        return Result(findings: Self.unique(findings), screenshot: image)
    }

    private func waitUntilSettled(_ bridge: PageBridge) async -> Bool {
        let deadline = ContinuousClock.now + limits.timeout
        while ContinuousClock.now < deadline {
            if bridge.isSettled(quiet: limits.quiet, settle: limits.settle) { return true }
            do { try await Task.sleep(for: .milliseconds(50)) } catch { return false }
        }
        return false
    }

    private static func unique(_ findings: [Finding]) -> [Finding] {
        var seen = Set<Finding>()
        return findings.filter { seen.insert($0).inserted }
    }
}
