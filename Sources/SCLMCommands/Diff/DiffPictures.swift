import Foundation
import SCLMArchive
import SCLMBrowser
import SCLMCore
import SCLMImage
import SCLMPlayer

/// The visual half of `sclm diff`: the changed and renamed slides of both revisions rendered in the picture
/// pass (``RenderPass/pictures``: frozen time, finished animations, hidden caret), and each pair of pictures
/// compared (``PixelDiff``). Unchanged slides are never rendered.
///
/// The images folder holds `renders/<package>/<slide>.png` (the renderer's pictures) and `diff/<slide>.png`
/// (each diff image with a change). The comparisons run on up to one thread per core as the pictures are
/// read back.
struct DiffPictures: Sendable {
    /// The per-pixel colour distance that counts as a change (`--threshold`).
    var threshold: Double
    /// The fewest changed pixels a region needs to be reported (`--min-pixels`).
    var minPixels: Int
    /// The browser (`--browser`, `SCLM_BROWSER`, else found on `PATH` as `validate --render` finds it).
    var browser: String?
    /// How long a slide may take to load and settle.
    var timeout: Duration = .seconds(15)

    /// The sub-folders of the images folder.
    static let rendersFolder = "renders"
    static let diffFolder = "diff"

    /// Renders the changed and renamed slides of `diff` into `folder` and compares them; by slide name
    /// (the new one). Nothing is rendered, and no browser started, when no slide changed.
    ///
    /// - Throws: ``BrowserError`` (`.unavailable`) without a browser; `CancellationError` when a signal cut
    ///   the render short; file errors in `folder`.
    func compare(
        _ diff: PackageDiff, old: PackageReport, new: PackageReport, policy: Policy, folder: String,
        context: CommandContext
    ) async throws -> [String: SlidePictures] {
        let shown = diff.slides.filter { $0.kind == .changed || $0.kind == .renamed }
        guard !shown.isEmpty else { return [:] }
        let renderer = PackageRenderer(
            options: BrowserOptions(
                executable: BrowserOptions.executable(option: browser, environment: context.environment),
                showsBrowserLogs: context.globals.verbose),
            limits: SlideRenderer.Limits(timeout: timeout, window: .zero), policy: policy,
            screenshots: folder + "/" + Self.rendersFolder, settings: RenderSettings(), provider: context,
            pass: .pictures)
        let rendered = try await renderer.render([
            PackageRenderer.Package(path: old.path, report: old, slides: Set(shown.map { $0.oldName ?? $0.name })),
            PackageRenderer.Package(path: new.path, report: new, slides: Set(shown.map(\.name))),
        ])
        guard rendered.allSatisfy({ !$0.cancelled }), rendered.count == 2 else { throw CancellationError() }
        try FileManager.default.createDirectory(
            atPath: folder + "/" + Self.diffFolder, withIntermediateDirectories: true)
        let pairs = shown.map { slide in
            Pair(
                slide: slide.name, old: Self.entry(slide.oldName ?? slide.name, of: rendered[0]),
                new: Self.entry(slide.name, of: rendered[1]))
        }
        return try await compareAll(pairs, folder: folder)
    }

    /// One slide's two renders.
    struct Pair: Sendable {
        let slide: String
        let old: SlideTally.Entry?
        let new: SlideTally.Entry?
    }

    /// The render of `slide` in `rendered`.
    private static func entry(_ slide: String, of rendered: PackageRenderer.Rendered) -> SlideTally.Entry? {
        rendered.slides?.entries.first { $0.slide == slide }
    }

    /// Compares every pair, as many at once as there are cores, each on a thread of its own.
    private func compareAll(_ pairs: [Pair], folder: String) async throws -> [String: SlidePictures] {
        let workers = max(1, ProcessInfo.processInfo.activeProcessorCount)
        return try await withThrowingTaskGroup(of: (String, SlidePictures).self) { group in
            var results: [String: SlidePictures] = [:]
            var next = 0
            func startNext() {
                guard next < pairs.count else { return }
                let pair = pairs[next]
                next += 1
                group.addTask {
                    (
                        pair.slide,
                        try await BlockingWork.run("sclm.diff.pictures") { _ in try compare(pair, folder: folder) }
                    )
                }
            }
            for _ in 0..<workers { startNext() }
            while let (slide, pictures) = try await group.next() {
                results[slide] = pictures
                startNext()
            }
            return results
        }
    }

    /// Reads, decodes and compares one pair's renders; writes the diff image when a pixel changed.
    func compare(_ pair: Pair, folder: String) throws -> SlidePictures {
        guard let oldImage = pair.old?.image, let newImage = pair.new?.image else {
            let missing = [("OLD", pair.old), ("NEW", pair.new)].first { $0.1?.image == nil }
            let reason = missing?.1?.status.missingPictureReason ?? "not rendered"
            return SlidePictures(problem: "\(missing?.0 ?? "OLD"): \(reason)")
        }
        let renders = folder + "/" + Self.rendersFolder + "/"
        let comparison = PixelDiff(threshold: threshold, minPixels: minPixels).compare(
            try Self.decode(renders + oldImage), try Self.decode(renders + newImage))
        var pictures = SlidePictures(
            changedPixels: comparison.changedPixels, regions: comparison.regions,
            oldImage: Self.rendersFolder + "/" + oldImage, newImage: Self.rendersFolder + "/" + newImage)
        if !comparison.isSame {
            let name = Self.diffFolder + "/" + ((pair.slide as NSString).deletingPathExtension) + ".png"
            try Data(try PNGCodec.encode(comparison.diffImage())).write(to: URL(fileURLWithPath: folder + "/" + name))
            pictures.diffImage = name
        }
        return pictures
    }

    /// The picture in the PNG file at `path`.
    private static func decode(_ path: String) throws -> RGBAImage {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw SCLMError(.storage, "cannot read the render \(path)")
        }
        return try PNGCodec.decode(Array(data))
    }
}
