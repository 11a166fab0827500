import Foundation
import SCLMArchive
import SCLMBridgeModules
import SCLMBrowser
import SCLMCore

/// `validate --render`: every slide of every package loaded in one headless browser, a few pages loading
/// at a time and more waiting out their late windows, in a throwaway home; the findings join the static
/// ones, and screenshots go to a folder.
///
/// Each package gets a browser context of its own (storage, cookies, cache), disposed of after it. Every
/// slide ends with a ``SlideStatus`` (``SlideTally``): a package passes only when all were rendered. A
/// signal stops the run: the slides not rendered are ``SlideStatus/notReached``, and the packages not fully
/// rendered come back marked ``Rendered/cancelled``.
package struct PackageRenderer: Sendable {
    /// Slides loading at once: each holds a permit from its page's opening until its picture is taken.
    static let loadingLimit = 8
    /// Pages open at once: those loading and those waiting out their late window. It bounds the browser's
    /// memory (each page is a renderer process) while the windows of many slides overlap.
    static let pageLimit = 32

    /// A package given to the renderer: its path as the user gave it and its static report (`nil` when it
    /// could not be read).
    package struct Package: Sendable {
        package let path: String
        package let report: PackageReport?
        /// The slides to render; `nil` renders every slide.
        package let slides: Set<String>?

        /// Creates a package to render: `slides` of it, or all of them.
        package init(path: String, report: PackageReport?, slides: Set<String>? = nil) {
            self.path = path
            self.report = report
            self.slides = slides
        }
    }

    /// What the renderer made of one package.
    package struct Rendered: Sendable, Equatable {
        /// The static report with the render findings added; `nil` when the package was not rendered (it
        /// could not be read, or breaks a safety rule).
        package var report: PackageReport?
        /// Whether a signal cut the run short before the package was fully rendered.
        package var cancelled: Bool
        /// Each slide and its status, when the package's slides were listed.
        package var slides: SlideTally?

        /// Creates what became of a package: not rendered and not cancelled by default.
        package init(report: PackageReport? = nil, cancelled: Bool = false, slides: SlideTally? = nil) {
            self.report = report
            self.cancelled = cancelled
            self.slides = slides
        }
    }

    let options: BrowserOptions
    let limits: SlideRenderer.Limits
    let policy: Policy
    /// Where PNGs and the contact sheet go, if anywhere.
    let screenshots: String?
    /// The settings the throwaway home's modules read.
    let settings: RenderSettings
    /// The user's home and environment, and the hosting of the throwaway home.
    let provider: any HostingProvider
    /// What the slides are rendered for.
    let pass: RenderPass

    /// Creates a renderer of packages checked against `policy`, each slide given `limits`, for `pass`.
    package init(
        options: BrowserOptions, limits: SlideRenderer.Limits, policy: Policy, screenshots: String?,
        settings: RenderSettings, provider: any HostingProvider, pass: RenderPass = .findings
    ) {
        self.options = options
        self.limits = limits
        self.policy = policy
        self.screenshots = screenshots
        self.settings = settings
        self.provider = provider
        self.pass = pass
    }

    /// Renders the `packages` that could be read and are safe to unpack, ``RenderPass/packagesAtOnce`` at a
    /// time; returns, in order, what became of each (those a signal cut short marked cancelled).
    ///
    /// - Throws: ``BrowserError`` (`.unavailable`) without a browser; file errors writing screenshots.
    package func render(_ packages: [Package]) async throws -> [Rendered] {
        let renderHome = try RenderHome.make(
            settings: settings, userHome: provider.home, environment: provider.environment)
        defer { renderHome.remove() }
        var sheet = ContactSheet(viewport: options.viewport)
        let reports = packages.map(renderableReport)
        let folders = packages.indices.map { index in
            screenshots != nil && reports[index] != nil ? sheet.folder(forPackage: packages[index].path) : nil
        }
        var rendered = [Rendered](repeating: Rendered(), count: packages.count)
        var done = Set<Int>()
        do {
            // The throwaway home's hosting: its store and configuration, one curl engine for every page's modules.
            try await provider.withHosting(home: renderHome.home.root, environment: renderHome.environment) {
                hosting in
                try await Browser.withBrowser(options, environment: provider.environment, logger: provider.logger) {
                    browser in
                    try await withThrowingTaskGroup(of: (Int, Rendered).self) { group in
                        var next = 0
                        func startNext() {
                            guard next < packages.count, !Task.isCancelled else { return }
                            let index = next
                            next += 1
                            group.addTask {
                                let job = Job(
                                    path: packages[index].path, report: reports[index], slides: packages[index].slides,
                                    presentationId: Int64(index + 1), folder: folders[index])
                                return (
                                    index, try await render(job, browser: browser, hosting: hosting, home: renderHome)
                                )
                            }
                        }
                        for _ in 0..<pass.packagesAtOnce { startNext() }
                        while let (index, result) = try await group.next() {
                            rendered[index] = result
                            done.insert(index)
                            startNext()
                        }
                    }
                }
            }
        } catch  where Task.isCancelled {
            provider.logger.debug("the render was cancelled: \(error.userMessage)")
        }
        for index in rendered.indices where !done.contains(index) { rendered[index].cancelled = true }
        for index in rendered.indices {
            if let folder = folders[index], let slides = rendered[index].slides {
                sheet.add(package: packages[index].path, folder: folder, slides: slides)
            }
        }
        if let screenshots, pass == .findings { try sheet.write(to: screenshots) }
        return rendered
    }

    /// One package to render: its report (`nil` when it is not rendered), the slides asked for, its
    /// presentation id in the throwaway home and its folder of the screenshots folder.
    private struct Job: Sendable {
        let path: String
        let report: PackageReport?
        let slides: Set<String>?
        let presentationId: Int64
        let folder: String?
    }

    /// The report of `package` when it is rendered: not when it could not be read, nor when it breaks a safety
    /// rule (it is never unpacked; said in a warning).
    private func renderableReport(_ package: Package) -> PackageReport? {
        guard let report = package.report else { return nil }
        guard !report.findings.contains(where: { $0.severity == .error && $0.ruleClass == .safety }) else {
            provider.logger.warning(
                "\(package.path) is not rendered: it breaks a safety rule, so it is never unpacked")
            return nil
        }
        return report
    }

    private func render(_ job: Job, browser: Browser, hosting: any PresentationHosting, home: RenderHome)
        async throws -> Rendered
    {
        guard let report = job.report else { return Rendered() }
        let slides = try await home.install(
            job.path, kind: report.kind, presentationId: job.presentationId, policy: policy,
            store: try hosting.store()
        ).filter { job.slides?.contains($0) ?? true }
        let results = try await results(
            of: slides, presentationId: job.presentationId, browser: browser, hosting: hosting,
            imageFolder: job.folder)
        let tally = SlideTally(
            slides.indices.map { .init(slide: slides[$0], status: results[$0].status, image: results[$0].image) })
        let findings = report.findings + Self.renderFindings(results.flatMap(\.findings), explainedBy: report.findings)
        return Rendered(
            report: PackageReport(
                path: report.path, kind: report.kind, findings: findings, entryCount: report.entryCount,
                byteCount: report.byteCount),
            cancelled: Task.isCancelled && !tally.allRendered, slides: tally)
    }

    /// The slides' results in a browser context of their own; every slide `RENDER-NOT-REACHED` when the
    /// browser is gone.
    private func results(
        of slides: [String], presentationId: Int64, browser: Browser, hosting: any PresentationHosting,
        imageFolder: String?
    ) async throws -> [SlideRenderer.Result] {
        if let screenshots, let imageFolder {
            try FileManager.default.createDirectory(
                atPath: screenshots + "/" + imageFolder, withIntermediateDirectories: true)
        }
        do {
            return try await browser.withContext { browserContext in
                let pages = PagePool(browser: browser, context: browserContext, limit: Self.pageLimit, pass: pass)
                let renderer = SlideRenderer(
                    browser: browser, pages: pages, hosting: hosting, limits: limits, pass: pass)
                do {
                    let results = try await renderAll(
                        slides, presentationId: presentationId, renderer: renderer, imageFolder: imageFolder)
                    await pages.close()
                    return results
                } catch {
                    await withCancellationShield { await pages.close() }
                    throw error
                }
            }
        } catch let error as BrowserError where browser.isClosed {
            return slides.map { .notReached($0, "not rendered: \(error.message)") }
        }
    }

    /// The render's findings without the `RENDER-LOAD-FAILED` ones a static `REF-MISSING` already reports
    /// (with the referring file and line) for the same file.
    static func renderFindings(_ findings: [Finding], explainedBy staticFindings: [Finding]) -> [Finding] {
        let missing = Set(staticFindings.filter { $0.rule == .referenceMissing }.compactMap(\.subject))
        return findings.filter { $0.rule != .renderLoadFailed || !missing.contains($0.subject ?? "") }
    }

    /// Renders `slides`, at most ``pageLimit`` pages open and ``loadingLimit`` loading at once; results in
    /// slide order, each picture written to `imageFolder` of the screenshots folder as it arrives (and
    /// dropped from memory). A slide the run did not get to before a signal is `RENDER-NOT-REACHED`.
    private func renderAll(
        _ slides: [String], presentationId: Int64, renderer: SlideRenderer, imageFolder: String?
    ) async throws -> [SlideRenderer.Result] {
        let wantsImages = screenshots != nil
        let loading = AsyncSemaphore(limit: Self.loadingLimit)
        let cancelled = "the render was cancelled (SIGINT or SIGTERM) before this slide was rendered"
        return try await withThrowingTaskGroup(of: (Int, SlideRenderer.Result).self) { group in
            var results = [SlideRenderer.Result?](repeating: nil, count: slides.count)
            var next = 0
            func startNext() {
                guard next < slides.count, !Task.isCancelled else { return }
                let index = next
                next += 1
                group.addTask {
                    do {
                        let result = try await renderer.render(
                            slides[index], presentationId: presentationId, screenshot: wantsImages, loading: loading)
                        return (index, result)
                    } catch is CancellationError {
                        return (index, .notReached(slides[index], cancelled))
                    }
                }
            }
            for _ in 0..<Self.pageLimit { startNext() }
            while let (index, result) = try await group.next() {
                results[index] = try written(result, slide: slides[index], to: imageFolder)
                startNext()
            }
            return slides.indices.map { results[$0] ?? .notReached(slides[$0], cancelled) }
        }
    }

    /// `result` with its picture written to `folder` of the screenshots folder and replaced by its path.
    private func written(_ result: SlideRenderer.Result, slide: String, to folder: String?) throws
        -> SlideRenderer.Result
    {
        guard let screenshots, let folder, let image = result.screenshot else { return result }
        var written = result
        written.screenshot = nil
        written.image = folder + "/" + ContactSheet.imageName(of: slide)
        try image.write(to: URL(fileURLWithPath: screenshots + "/" + (written.image ?? "")))
        return written
    }
}
