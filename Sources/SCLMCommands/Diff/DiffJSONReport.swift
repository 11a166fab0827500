import SCLMArchive
import SCLMImage

/// The `sclm diff --format json` document (schema version 1, documented in docs/cli.md).
///
/// ```json
/// {"version":1,"changed":true,"old":{"path":"v1.zip","kind":"zip"},"new":{"path":"v2","kind":"folder"},
///  "summary":{"slides":3,"added":1,"removed":0,"renamed":0,"changed":1,"unchanged":1,"otherFiles":0,
///             "newFindings":1,"goneFindings":0},
///  "slides":[{"name":"index.html","oldName":null,"kind":"changed",
///             "files":[{"path":"css/deck.css","kind":"changed","oldSize":812,"newSize":830}],
///             "words":[{"kind":"deleted","text":"15.2","element":"h2#claim"}],
///             "pictures":{"changedPixels":412,"boxes":[{"x":96,"y":210,"width":180,"height":28,"pixels":412}],
///                         "oldImage":"img/renders/v1/index.png","newImage":"img/renders/v2/index.png",
///                         "diffImage":"img/diff/index.png","problem":null}}],
///  "otherFiles":[],
///  "findings":{"new":[{"rule":"REF-MISSING","severity":"error","path":"index.html","message":"…"}],"gone":[]}}
/// ```
/// Every key is always present (`null` when it does not apply), whatever the slide's kind: `pictures` is
/// `null` for a slide that was not rendered (added, removed, unchanged, or `--no-render`), and the image
/// paths are `null` without `--images`.
struct DiffJSONReport: Encodable {
    /// The schema version; bumped only for incompatible changes.
    static let schemaVersion = 1

    struct Revision: Encodable {
        let path: String
        let kind: String
    }

    struct Summary: Encodable {
        let slides, added, removed, renamed, changed, unchanged, otherFiles, newFindings, goneFindings: Int
    }

    struct File: Encodable {
        let path: String
        let kind: String
        let oldSize: Int64?
        let newSize: Int64?

        init(_ change: PackageDiff.FileChange) {
            path = change.path
            kind = change.kind.rawValue
            oldSize = change.oldSize
            newSize = change.newSize
        }

        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(path, forKey: .path)
            try container.encode(kind, forKey: .kind)
            try container.encode(oldSize, forKey: .oldSize)
            try container.encode(newSize, forKey: .newSize)
        }

        private enum CodingKeys: String, CodingKey { case path, kind, oldSize, newSize }
    }

    struct Word: Encodable {
        let kind: String
        let text: String
        let element: String
    }

    struct Box: Encodable {
        let x, y, width, height, pixels: Int
    }

    struct Pictures: Encodable {
        let changedPixels: Int
        let boxes: [Box]
        let oldImage: String?
        let newImage: String?
        let diffImage: String?
        let problem: String?

        /// `pictures` with their image paths in `folder`, or none without one.
        init(_ pictures: SlidePictures, folder: String?) {
            changedPixels = pictures.changedPixels
            boxes = pictures.regions.map {
                Box(x: $0.box.x, y: $0.box.y, width: $0.box.width, height: $0.box.height, pixels: $0.pixels)
            }
            let path = { (image: String?) in folder.flatMap { folder in image.map { folder + "/" + $0 } } }
            oldImage = path(pictures.oldImage)
            newImage = path(pictures.newImage)
            diffImage = path(pictures.diffImage)
            problem = pictures.problem
        }

        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(changedPixels, forKey: .changedPixels)
            try container.encode(boxes, forKey: .boxes)
            try container.encode(oldImage, forKey: .oldImage)
            try container.encode(newImage, forKey: .newImage)
            try container.encode(diffImage, forKey: .diffImage)
            try container.encode(problem, forKey: .problem)
        }

        private enum CodingKeys: String, CodingKey { case changedPixels, boxes, oldImage, newImage, diffImage, problem }
    }

    struct Slide: Encodable {
        let name: String
        let oldName: String?
        let kind: String
        let files: [File]
        let words: [Word]
        let pictures: Pictures?

        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(name, forKey: .name)
            try container.encode(oldName, forKey: .oldName)
            try container.encode(kind, forKey: .kind)
            try container.encode(files, forKey: .files)
            try container.encode(words, forKey: .words)
            try container.encode(pictures, forKey: .pictures)
        }

        private enum CodingKeys: String, CodingKey { case name, oldName, kind, files, words, pictures }
    }

    struct FindingEntry: Encodable {
        let rule: String
        let severity: String
        let path: String?
        let message: String

        init(_ key: PackageDiff.FindingKey) {
            rule = key.rule
            severity = key.severity
            path = key.path
            message = key.message
        }

        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(rule, forKey: .rule)
            try container.encode(severity, forKey: .severity)
            try container.encode(path, forKey: .path)
            try container.encode(message, forKey: .message)
        }

        private enum CodingKeys: String, CodingKey { case rule, severity, path, message }
    }

    struct Findings: Encodable {
        let new: [FindingEntry]
        let gone: [FindingEntry]
    }

    let version = Self.schemaVersion
    let changed: Bool
    let old: Revision
    let new: Revision
    let summary: Summary
    let slides: [Slide]
    let otherFiles: [File]
    let findings: Findings

    init(
        _ diff: PackageDiff, old: PackageReport, new: PackageReport, pictures: [String: SlidePictures] = [:],
        imagesFolder: String? = nil
    ) {
        changed = !diff.hasNoChanges
        self.old = Revision(path: old.path, kind: old.kind.rawValue)
        self.new = Revision(path: new.path, kind: new.kind.rawValue)
        summary = Summary(
            slides: diff.slides.count, added: diff.count(.added), removed: diff.count(.removed),
            renamed: diff.count(.renamed), changed: diff.count(.changed), unchanged: diff.count(.unchanged),
            otherFiles: diff.otherFiles.count, newFindings: diff.newFindings.count,
            goneFindings: diff.goneFindings.count)
        slides = diff.slides.map { slide in
            Slide(
                name: slide.name, oldName: slide.oldName, kind: slide.kind.rawValue, files: slide.files.map(File.init),
                words: slide.words.map { Word(kind: $0.kind.rawValue, text: $0.text, element: $0.element) },
                pictures: pictures[slide.name].map { Pictures($0, folder: imagesFolder) })
        }
        otherFiles = diff.otherFiles.map(File.init)
        findings = Findings(
            new: diff.newFindings.map(FindingEntry.init), gone: diff.goneFindings.map(FindingEntry.init))
    }
}
