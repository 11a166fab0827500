import SCLMBrowser
import SCLMCore
import Synchronization

/// The open pages of one package's browser context, kept between slides: a slide takes an idle page (a new
/// one when none is idle, at most `limit` open) and gives it back once it was rendered; a page whose slide
/// timed out or crashed is closed, and so is one that has shown ``slidesPerPage`` slides. The next slide
/// then loads in a renderer that already runs: starting one costs Chromium about twice the CPU of loading a
/// slide in it. What the earlier document still does as the page moves on (its `pagehide` handlers) is
/// heard by neither slide (``PageBridge``), as when a page closes.
final class PagePool: Sendable {
    /// How many slides a page shows before it is closed: a renderer keeps what its slides loaded (decoded
    /// images, fonts, scripts). On the 350-slide benchmark deck Chromium's summed PSS peaked at 1.78 GiB with
    /// pages never closed, 1.45 GiB at 8 slides a page and 1.17 GiB at 4; the time stayed within the noise.
    static let slidesPerPage = 4

    private struct State {
        var idle: [BrowserPage] = []
        /// Slides shown, by page (its target id).
        var shown: [String: Int] = [:]
    }

    private let browser: Browser
    /// The package's browser context.
    private let context: String
    private let state = Mutex(State())
    private let open: AsyncSemaphore
    /// The render's pass, which prepares each new page (``RenderPass/prepare(_:)``).
    private let pass: RenderPass

    /// Creates an empty pool of pages of browser context `context`, at most `limit` open at once, each new
    /// page prepared for `pass`.
    init(browser: Browser, context: String, limit: Int, pass: RenderPass = .findings) {
        self.browser = browser
        self.context = context
        self.pass = pass
        open = AsyncSemaphore(limit: limit)
    }

    /// An idle page, else a new one once fewer than `limit` are open.
    ///
    /// - Throws: ``BrowserError`` when no page can be opened; `CancellationError`.
    func take() async throws -> BrowserPage {
        try await open.acquire()
        if let page = state.withLock({ $0.idle.popLast() }) { return page }
        let page: BrowserPage
        do {
            page = try await browser.newPage(in: context)
        } catch {
            open.release()
            throw error
        }
        do {
            try await pass.prepare(page)
            return page
        } catch {
            await discard(page)
            throw error
        }
    }

    /// Keeps `page`, whose slide was rendered, for the next slide; closes it once it has shown ``slidesPerPage``.
    func giveBack(_ page: BrowserPage) async {
        let isWorn = state.withLock { state in
            state.shown[page.targetId, default: 0] += 1
            guard state.shown[page.targetId, default: 0] >= Self.slidesPerPage else {
                state.idle.append(page)
                return false
            }
            state.shown[page.targetId] = nil
            return true
        }
        if isWorn { await withCancellationShield { await page.close() } }
        open.release()
    }

    /// Closes `page`, which is not fit for another slide.
    func discard(_ page: BrowserPage) async {
        state.withLock { _ = $0.shown.removeValue(forKey: page.targetId) }
        await withCancellationShield { await page.close() }
        open.release()
    }

    /// Closes the idle pages.
    func close() async {
        let pages = state.withLock { state in
            defer { state = State() }
            return state.idle
        }
        for page in pages { await page.close() }
    }
}
