import Foundation
import SCLMArchive
import SCLMBrowser
import SCLMCore

/// `validate --render`: every slide of every package loaded in one headless browser, on a small pool of
/// pages, in a throwaway home; the findings join the static ones, and screenshots go to a folder.
///
/// Each package gets a browser context of its own (storage, cookies, cache), disposed of after it. A
/// signal stops the run: the packages not fully rendered come back marked ``ValidationOutcome/cancelled``.
struct PackageRenderer: Sendable {
    /// Pages rendering at once.
    static let poolSize = 4

    let options: BrowserOptions
    let limits: SlideRenderer.Limits
    let policy: Policy
    /// Where PNGs and the contact sheet go, if anywhere.
    let screenshots: String?
    /// The settings the throwaway home's modules read.
    let settings: RenderSettings
    let context: CommandContext

    /// Renders the packages of `outcomes` that could be read and are safe to unpack; returns the outcomes
    /// with the render findings added (those a signal cut short marked cancelled).
    ///
    /// - Throws: ``BrowserError`` (`.unavailable`) without a browser; file errors writing screenshots.
    func render(_ outcomes: [ValidationOutcome]) async throws -> [ValidationOutcome] {
        let renderHome = try RenderHome.make(like: context, settings: settings)
        defer { renderHome.remove() }
        var sheet = ContactSheet(viewport: options.viewport)
        var rendered = outcomes
        var done = 0
        do {
            // The throwaway home's services: its store and configuration, one curl engine for every page's modules.
            try await renderHome.context.withServices { services in
                try await Browser.withBrowser(options, environment: context.environment, logger: context.logger) {
                    browser in
                    for (index, outcome) in outcomes.enumerated() {
                        rendered[index] = try await browser.withContext { browserContext in
                            let renderer = SlideRenderer(
                                browser: browser, browserContext: browserContext, services: services, limits: limits)
                            return try await render(
                                outcome, presentationId: Int64(index + 1), renderer: renderer, home: renderHome,
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
        _ outcome: ValidationOutcome, presentationId: Int64, renderer: SlideRenderer, home: RenderHome,
        sheet: inout ContactSheet
    ) async throws -> ValidationOutcome {
        guard let report = outcome.report else { return outcome }
        guard !report.findings.contains(where: { $0.severity == .error && $0.ruleClass == .safety }) else {
            context.logger.warning("\(outcome.path) is not rendered: it breaks a safety rule, so it is never unpacked")
            return outcome
        }
        let slides = try await home.install(
            outcome.path, kind: report.kind, presentationId: presentationId, policy: policy)
        let results = try await renderAll(slides, presentationId: presentationId, renderer: renderer)
        if let screenshots {
            let folder = sheet.add(package: outcome.path, slides: slides)
            try writeImages(results, slides: slides, to: screenshots + "/" + folder)
        }
        let findings = report.findings + results.flatMap(\.findings)
        return outcome.replacing(
            PackageReport(
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
