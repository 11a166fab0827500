import Foundation
import SCLMArchive
import SCLMCore

/// The `sclm diff --format html` report: one self-contained page a reviewer opens from `file://`.
///
/// A summary (slides added, removed, renamed, changed, unchanged; findings new and gone), then every slide:
/// a changed or renamed one with its two renders side by side, overlaid and behind a swipe, the diff image,
/// the words of its text deleted and inserted, and its changed files. The pictures are inline `data:` URIs,
/// so the page needs no folder beside it and loads nothing. Every text from the packages (slide and file
/// names, words, elements, findings) is escaped, and a Content-Security-Policy allows only the page's own
/// style sheet and script (by a nonce drawn for each report) and `data:` images: nothing from the network.
struct DiffHTMLReport {
    let diff: PackageDiff
    let old: String
    let new: String
    /// The compared pictures, by slide name.
    var pictures: [String: SlidePictures] = [:]
    /// The folder the pictures' paths are relative to (`nil` with `--no-render`).
    var imagesFolder: String?
    /// The nonce the report's style sheet and script carry.
    var nonce = Self.randomNonce()

    /// The page.
    ///
    /// - Throws: `SCLMError` (`.storage`) when a picture cannot be read.
    func html() throws -> String {
        let title = "sclm diff: \(escape(old)) → \(escape(new))"
        let csp =
            "default-src 'none'; img-src data:; style-src 'nonce-\(nonce)'; script-src 'nonce-\(nonce)'; "
            + "base-uri 'none'; form-action 'none'"
        var page = """
            <!DOCTYPE html>
            <html lang="en"><head><meta charset="utf-8">
            <meta http-equiv="Content-Security-Policy" content="\(csp)">
            <title>\(title)</title>
            <style nonce="\(nonce)">\(DiffHTMLAssets.style)</style></head>
            <body class="changed-only"><header><h1>\(title)</h1>\(summary)
            <label><input type="checkbox" id="changed-only" checked> changed only</label>
            <span class="keys">j / k or arrows: next / previous slide</span></header><main>

            """
        for (index, slide) in diff.slides.enumerated() {
            page += try section(slide, index: index) + "\n"
        }
        page += findings + "</main>\n<script nonce=\"\(nonce)\">\(DiffHTMLAssets.script)</script></body></html>\n"
        return page
    }

    /// The counts, each `<dd>` named by `data-count` (the JSON report's `summary` keys).
    private var summary: String {
        let counts: [(String, Int)] =
            PackageDiff.SlideKind.allCases.map { ($0.rawValue, diff.count($0)) } + [
                ("otherFiles", diff.otherFiles.count), ("newFindings", diff.newFindings.count),
                ("goneFindings", diff.goneFindings.count),
            ]
        let items = counts.map { "<div><dt>\($0.0)</dt><dd data-count=\"\($0.0)\">\($0.1)</dd></div>" }
        return "<dl id=\"summary\">" + items.joined() + "</dl>"
    }

    /// One slide's section.
    private func section(_ slide: PackageDiff.Slide, index: Int) throws -> String {
        let name = slide.oldName.map { "\(escape($0)) → \(escape(slide.name))" } ?? escape(slide.name)
        var html = """
            <section class="slide" id="slide-\(index)" data-kind="\(slide.kind.rawValue)" data-view="side">
            <h2><span class="kind">\(slide.kind.rawValue)</span> \(name)</h2>
            """
        if let pictures = pictures[slide.name] { html += try views(pictures) }
        if !slide.words.isEmpty {
            html += "<ul class=\"words\">" + slide.words.map(word).joined() + "</ul>"
        }
        if !slide.files.isEmpty { html += fileTable(slide.files) }
        return html + "</section>"
    }

    /// The pictures of a slide: their summary, the three views of the two renders and the diff image.
    private func views(_ pictures: SlidePictures) throws -> String {
        var html = "<p class=\"pictures\">\(escape(pictures.summary))</p>"
        guard let oldImage = try image(pictures.oldImage), let newImage = try image(pictures.newImage) else {
            return html
        }
        let old = "<img src=\"\(oldImage)\" alt=\"OLD\">"
        let new = "<img src=\"\(newImage)\" alt=\"NEW\">"
        html += """
            <div class="views"><button data-view="side" aria-pressed="true">side by side</button>\
            <button data-view="overlay" aria-pressed="false">overlay</button>\
            <button data-view="swipe" aria-pressed="false">swipe</button></div>
            <div class="view side"><figure>\(old)<figcaption>OLD</figcaption></figure>\
            <figure>\(new)<figcaption>NEW</figcaption></figure></div>
            <div class="view overlay"><div class="stack">\(old)<div class="top">\(new)</div></div>
            <label>NEW opacity <input type="range" class="overlay-opacity" min="0" max="100" value="50"></label></div>
            <div class="view swipe"><div class="stack">\(old)<div class="top">\(new)</div></div>
            <label>NEW up to <input type="range" class="swipe-position" min="0" max="100" value="50"></label></div>
            """
        if let diffImage = try image(pictures.diffImage) {
            html +=
                "<figure class=\"diff\"><img src=\"\(diffImage)\" alt=\"diff\"><figcaption>diff</figcaption></figure>"
        }
        return html
    }

    /// One run of deleted or inserted words, with its element.
    private func word(_ change: WordDiff.Change) -> String {
        let tag = change.kind == .deleted ? "del" : "ins"
        return "<li><\(tag)>\(escape(change.text))</\(tag)> in <code>\(escape(change.element))</code></li>"
    }

    /// A slide's changed files with their sizes.
    private func fileTable(_ files: [PackageDiff.FileChange]) -> String {
        let rows = files.map { file in
            "<tr><td>\(file.kind.rawValue)</td><td><code>\(escape(file.path))</code></td>"
                + "<td>\(escape(DiffTextReport.sizes(file)))</td></tr>"
        }
        return "<table class=\"files\">" + rows.joined() + "</table>"
    }

    /// The files outside every slide and the findings new and gone.
    private var findings: String {
        var html = ""
        if !diff.otherFiles.isEmpty {
            html +=
                "<section id=\"other-files\"><h2>Other files (in no slide)</h2>" + fileTable(diff.otherFiles)
                + "</section>"
        }
        for (title, keys) in [("New findings", diff.newFindings), ("Gone findings", diff.goneFindings)]
        where !keys.isEmpty {
            let items = keys.map { key in
                "<li>\(escape(key.severity)) <code>\(escape(key.rule))</code> "
                    + "<code>\(escape(key.path ?? "(package)"))</code>: \(escape(key.message))</li>"
            }
            html += "<section class=\"findings\"><h2>\(title)</h2><ul>" + items.joined() + "</ul></section>"
        }
        return html
    }

    /// The PNG at `path` (relative to the images folder) as a `data:` URI; `nil` without one.
    private func image(_ path: String?) throws -> String? {
        guard let path, let imagesFolder else { return nil }
        guard let data = FileManager.default.contents(atPath: imagesFolder + "/" + path) else {
            throw SCLMError(.storage, "cannot read the picture \(imagesFolder)/\(path)")
        }
        return "data:image/png;base64," + data.base64EncodedString()
    }

    /// `text` from a package, a file name or a finding, safe in HTML text and attribute values.
    private func escape(_ text: String) -> String { JUnitReport.text(text) }

    /// 16 random bytes, Base64.
    static func randomNonce() -> String {
        var generator = SystemRandomNumberGenerator()
        return Data((0..<16).map { _ in UInt8.random(in: .min ... .max, using: &generator) }).base64EncodedString()
    }
}
