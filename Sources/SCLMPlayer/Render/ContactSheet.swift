import Foundation
import SCLMBrowser
import SCLMCore

/// The `index.html` of a screenshots folder: every package's slides as a grid of thumbnails, and for a
/// slide without a picture a placeholder that says why (it never links a file that does not exist).
struct ContactSheet: Sendable {
    let viewport: BrowserOptions.Viewport
    private var packages: [(name: String, folder: String, slides: SlideTally)] = []
    private var folders: Set<String> = []

    init(viewport: BrowserOptions.Viewport) {
        self.viewport = viewport
    }

    /// The PNG name of `slide` (`index.html` → `index.png`).
    static func imageName(of slide: String) -> String {
        ((slide as NSString).deletingPathExtension) + ".png"
    }

    /// Reserves and returns the sub-folder the images of the package at `path` go to
    /// (``folderName(forPackage:)``, made unique with `-2`, `-3`…).
    mutating func folder(forPackage path: String) -> String {
        let base = Self.folderName(forPackage: path)
        var folder = base
        var number = 2
        while folders.contains(folder) {
            folder = "\(base)-\(number)"
            number += 1
        }
        folders.insert(folder)
        return folder
    }

    /// Adds the package at `path`, its images in `folder`, with its slides.
    mutating func add(package path: String, folder: String, slides: SlideTally) {
        packages.append((path, folder, slides))
    }

    /// The folder name for the images of the package at `path`: its file name without the extension, each `/`
    /// and unsafe character (``TerminalText/isUnsafe(_:)``) replaced by `_`, and `package` for a name that
    /// is empty or only dots. The name is one component that stays inside the screenshots folder: `...zip`
    /// would otherwise give `..` and write the images next to that folder, not in it.
    static func folderName(forPackage path: String) -> String {
        let base = ((path as NSString).lastPathComponent as NSString).deletingPathExtension
        var name = String.UnicodeScalarView()
        for scalar in base.unicodeScalars {
            name.append(scalar == "/" || TerminalText.isUnsafe(scalar) ? "_" : scalar)
        }
        return name.allSatisfy { $0 == "." } ? "package" : String(name)
    }

    /// Writes `index.html` into `folder`.
    ///
    /// - Throws: file errors.
    func write(to folder: String) throws {
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        try Data(html.utf8).write(to: URL(fileURLWithPath: folder + "/index.html"))
    }

    var html: String {
        let sections = packages.map { package in
            let cells = package.slides.entries.map(Self.cell)
            return "<h2>\(Self.escape(package.name))</h2>\n<p>\(Self.escape(package.slides.summary))</p>\n"
                + "<div class=\"grid\">\n\(cells.joined(separator: "\n"))\n</div>"
        }
        return """
            <!DOCTYPE html>
            <html><head><meta charset="utf-8"><title>sclm validate --render</title>
            <style>body{font-family:sans-serif;margin:1em}.grid{display:flex;flex-wrap:wrap;gap:12px}
            figure{margin:0}img,.missing{width:256px;aspect-ratio:\(viewport.width)/\(viewport.height);border:1px solid #ccc}
            .missing{display:flex;align-items:center;justify-content:center;text-align:center;background:#fbeaea;color:#900;box-sizing:border-box;padding:8px}
            figcaption{font-size:12px}</style></head><body>
            <h1>Slides at \(viewport)</h1>
            \(sections.joined(separator: "\n"))
            </body></html>

            """
    }

    /// One slide: its linked thumbnail, or a placeholder with the reason it has none.
    private static func cell(_ entry: SlideTally.Entry) -> String {
        let caption = "<figcaption>\(escape(entry.slide))</figcaption></figure>"
        guard let image = entry.image.map(escape) else {
            return "<figure><div class=\"missing\">\(escape(entry.status.missingPictureReason))</div>\(caption)"
        }
        return "<figure><a href=\"\(image)\"><img src=\"\(image)\" alt=\"\(escape(entry.slide))\"></a>\(caption)"
    }

    private static func escape(_ text: String) -> String {
        text.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
            .replacingOccurrences(of: ">", with: "&gt;").replacingOccurrences(of: "\"", with: "&quot;")
    }
}
