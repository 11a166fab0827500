import Foundation
import SCLMArchive
import SCLMBrowser
import SCLMCore

/// `validate --render`: every slide of every package loaded in one headless browser, on a small pool of
/// pages, in a throwaway home; the findings join the static ones, and screenshots go to a folder.
///
/// Each package gets a browser context of its own (storage, cookies, cache), disposed of after it. A
/// signal stops the run: the packages not fully rendered come back marked ``Rendered/cancelled``.
package struct PackageRenderer: Sendable {
    /// Pages rendering at once.
    static let poolSize = 4

    /// A package given to the renderer: its path as the user gave it and its static report (`nil` when it
    /// could not be read).
    package struct Package: Sendable {
        package let path: String
        package let report: PackageReport?

        /// Creates a package to render.
        package init(path: String, report: PackageReport?) {
            self.path = path
            self.report = report
        }
    }

    /// What the renderer made of one package.
    package struct Rendered: Sendable, Equatable {
        /// The static report with the render findings added; `nil` when the package was not rendered (it
        /// could not be read, or breaks a safety rule).
        package var report: PackageReport?
        /// Whether a signal cut the run short before the package was fully rendered.
        package var cancelled: Bool

        /// Creates what became of a package: not rendered and not cancelled by default.
        package init(report: PackageReport? = nil, cancelled: Bool = false) {
            self.report = report
            self.cancelled = cancelled
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

    /// Creates a renderer of packages checked against `policy`, each slide given `limits`.
    package init(
        options: BrowserOptions, limits: SlideRenderer.Limits, policy: Policy, screenshots: String?,
        settings: RenderSettings, provider: any HostingProvider
    ) {
        self.options = options
        self.limits = limits
        self.policy = policy
        self.screenshots = screenshots
        self.settings = settings
        self.provider = provider
    }

    /// Renders the `packages` that could be read and are safe to unpack; returns, in order, what became of
    /// each (those a signal cut short marked cancelled).
    ///
    /// - Throws: ``BrowserError`` (`.unavailable`) without a browser; file errors writing screenshots.
    package func render(_ packages: [Package]) async throws -> [Rendered] {
        let renderHome = try RenderHome.make(
            settings: settings, userHome: provider.home, environment: provider.environment)
        defer { renderHome.remove() }
        var sheet = ContactSheet(viewport: options.viewport)
        var rendered = [Rendered](repeating: Rendered(), count: packages.count)
        var done = 0
        do {
            // The throwaway home's hosting: its store and configuration, one curl engine for every page's modules.
            try await provider.withHosting(home: renderHome.home.root, environment: renderHome.environment) {
                hosting in
                try await Browser.withBrowser(options, environment: provider.environment, logger: provider.logger) {
                    browser in
                    for (index, package) in packages.enumerated() {
                        rendered[index] = try await browser.withContext { browserContext in
                            let renderer = SlideRenderer(
                                browser: browser, browserContext: browserContext, hosting: hosting, limits: limits)
                            return try await render(
                                package, presentationId: Int64(index + 1), renderer: renderer, home: renderHome,
                                sheet: &sheet)
                        }
                        done = index + 1
                    }
                }
            }
        } catch  where Task.isCancelled {
            for index in done..<rendered.count { rendered[index].cancelled = true }
        }
        if let screenshots { try sheet.write(to: screenshots) }
        return rendered
    }

    private func render(
        _ package: Package, presentationId: Int64, renderer: SlideRenderer, home: RenderHome,
        sheet: inout ContactSheet
    ) async throws -> Rendered {
        guard let report = package.report else { return Rendered() }
        guard !report.findings.contains(where: { $0.severity == .error && $0.ruleClass == .safety }) else {
            provider.logger.warning(
                "\(package.path) is not rendered: it breaks a safety rule, so it is never unpacked")
            return Rendered()
        }
        let slides = try await home.install(
            package.path, kind: report.kind, presentationId: presentationId, policy: policy,
            store: try renderer.hosting.store())
        let results = try await renderAll(slides, presentationId: presentationId, renderer: renderer)
        if let screenshots {
            let folder = sheet.add(package: package.path, slides: slides)
            try writeImages(results, slides: slides, to: screenshots + "/" + folder)
        }
        let findings = report.findings + results.flatMap(\.findings)
        return Rendered(
            report: PackageReport(
                path: report.path, kind: report.kind, findings: findings, entryCount: report.entryCount,
                byteCount: report.byteCount))
    }

    /// Renders `slides` at most ``poolSize`` at a time; results in slide order.
    private func renderAll(_ slides: [String], presentationId: Int64, renderer: SlideRenderer) async throws
        -> [SlideRenderer.Result]
    {
        let wantsImages = screenshots != nil
        return try await withThrowingTaskGroup(of: (Int, SlideRenderer.Result).self) { group in
            var results = [SlideRenderer.Result?](repeating: nil, count: slides.count)
            var next = 0
            func startNext() {
                guard next < slides.count else { return }
                let index = next
                next += 1
                group.addTask {
                    (
                        index,
                        try await renderer.render(
                            slides[index], presentationId: presentationId, screenshot: wantsImages)
                    )
                }
            }
            for _ in 0..<Self.poolSize { startNext() }
            while let (index, result) = try await group.next() {
                results[index] = result
                startNext()
            }
            return results.compactMap { $0 }
        }
    }

    private func writeImages(_ results: [SlideRenderer.Result], slides: [String], to folder: String) throws {
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        for (slide, result) in zip(slides, results) {
            guard let image = result.screenshot else { continue }
            try image.write(to: URL(fileURLWithPath: folder + "/" + ContactSheet.imageName(of: slide)))
        }
    }
}
