import Foundation
import SCLMArchive
import SCLMBridge
import SCLMCore
import SCLMStore
import Synchronization

/// A presentation whose package is installed: its metadata, slides and media files, and its folder.
package struct InstalledPresentation: Sendable, Equatable {
    /// One slide, in presentation order.
    package struct Slide: Sendable, Equatable {
        package var id: Int64?
        package var name: String
        /// The slides reachable from this one (StoryContent's `linkedSlides` CSV), for `getMap`.
        package var linkedSlides: [String]
        package var swipeNext: String?
        package var swipePrevious: String?
    }

    /// One media file, in presentation order.
    package struct MediaFile: Sendable, Equatable {
        package var id: Int64
        package var fileName: String
        package var title: String
        package var mimeType: String?
    }

    package var presentationId: Int64
    package var clientId: Int64
    package var name: String
    package var shortDescription: String
    package var longDescription: String
    package var revision: Int64
    package var order: Int64
    package var syncState: Int64
    package var mapEnabled: Bool
    package var slides: [Slide]
    package var mediaFiles: [MediaFile]
    /// The unpacked package (`content/<client>/<presentation>/sources`).
    package var sourcesDirectory: String

    /// The slide a presentation opens on when its package has it.
    package static let indexSlide = "index.html"

    /// Loads presentation `presentationId`, refusing one that is unknown, outside `scope` (another
    /// client's, answered as unknown) or not installed.
    ///
    /// - Throws: `SCLMError` (`.notFound`) naming the presentation and the command that fixes it;
    ///   ``StoreError``.
    package static func load(
        _ presentationId: Int64, from db: Database, home: Home, scope: ContentScope? = nil
    ) throws -> InstalledPresentation {
        guard let stored = try db.storedPresentation(id: presentationId, in: scope) else {
            throw SCLMError(
                .notFound,
                "presentation \(presentationId) is not known here; run `sclm sync` or check the id with `sclm list`")
        }
        let (record, summary) = (stored.record, stored.summary)
        let sources = home.sourcesDirectory(clientId: record.clientId, presentationId: presentationId)
        guard summary.installedRevision != nil, FileSystem.isDirectory(sources) else {
            throw SCLMError(
                .notFound,
                "presentation \(presentationId) (\(record.name)) is not installed; run `sclm sync --presentation \(presentationId)` first"
            )
        }
        return InstalledPresentation(
            presentationId: presentationId, clientId: record.clientId, name: record.name,
            shortDescription: record.shortDescription ?? "", longDescription: record.longDescription ?? "",
            revision: record.revision, order: record.order, syncState: summary.syncState.rawValue,
            mapEnabled: record.mapEnabled, slides: try db.slides(ofPresentation: presentationId).map(Slide.init),
            mediaFiles: try db.mediaFiles(ofPresentation: presentationId).map(MediaFile.init),
            sourcesDirectory: sources)
    }

    /// The slide named `name`, if the presentation has it.
    package func slide(named name: String) -> Slide? {
        slides.first { $0.name == name }
    }

    /// Whether `name` is a slide: listed in the metadata, or (for content installed without slide
    /// metadata) an `.html` file at the package root.
    package func hasSlide(_ name: String) -> Bool {
        if slide(named: name) != nil { return true }
        return Self.isPage(name) && packageHas(name)
    }

    /// Whether the package holds `name` as a regular file at its root (inside its folder).
    package func packageHas(_ name: String) -> Bool {
        ContentPath.isPlainName(name) && ContentPath.regularFile(name, inside: sourcesDirectory) != nil
    }

    /// The slide to open on: `index.html` when the package has it, else the first slide of the server's
    /// list, else the first `.html` file at the package root (in name order).
    ///
    /// - Throws: `SCLMError` (`.notFound`) when there is none of these: no slide at all.
    package func startSlide() throws -> String {
        if packageHas(Self.indexSlide) { return Self.indexSlide }
        if let first = slides.first { return first.name }
        let pages = (try? FileManager.default.contentsOfDirectory(atPath: sourcesDirectory)) ?? []
        if let page = pages.filter({ Self.isPage($0) && packageHas($0) }).sorted().first { return page }
        let check = "sclm validate \"$(sclm content path \(presentationId))\""
        throw SCLMError(
            .notFound,
            "presentation \(presentationId) (\(name)) has no slide to open: its package has no \(Self.indexSlide) and "
                + "no .html file at its root, and the server lists no slides; check it with `\(check)`")
    }

    /// The navigation `slide` declares in its own meta tags (nothing when its file cannot be read).
    func declaredNavigation(of slide: String) -> SlideMeta {
        guard let path = ContentPath.regularFile(slide, inside: sourcesDirectory) else { return SlideMeta() }
        return SlideMeta.read(path: path) ?? SlideMeta()
    }

    private static func isPage(_ name: String) -> Bool {
        name.hasSuffix(".html") || name.hasSuffix(".htm")
    }

    /// `getPresentationInfo`'s data.
    ///
    /// StoryContent's docs show `shortDescription` while the iOS model stores `shortdescription`; both keys
    /// are sent so content written against either reads it.
    var info: JSONValue {
        [
            "presentationId": .int(presentationId), "name": .string(name), "revision": .int(revision),
            "status": .int(syncState == 5 ? 1 : 0), "order": .int(order),
            "shortDescription": .string(shortDescription), "shortdescription": .string(shortDescription),
            "longDescription": .string(longDescription), "slidesCount": .int(Int64(slides.count)),
            "mediaFilesCount": .int(Int64(mediaFiles.count)),
        ]
    }

    /// `getMap`'s data: each slide with the slides it links to.
    var map: JSONValue {
        .object(
            Dictionary(slides.map { ($0.name, JSONValue.array($0.linkedSlides.map { .string($0) })) }) { first, _ in
                first
            })
    }
}

extension InstalledPresentation.Slide {
    /// The bridge's view of a stored slide: its links as a list, empty swipe targets as none.
    init(_ record: SlideRecord) {
        id = record.slideId
        name = record.name
        linkedSlides = (record.linkedSlides ?? "").split(separator: ",").map {
            $0.trimmingCharacters(in: .whitespaces)
        }.filter { !$0.isEmpty }
        swipeNext = record.swipeNext.flatMap { $0.isEmpty ? nil : $0 }
        swipePrevious = record.swipePrevious.flatMap { $0.isEmpty ? nil : $0 }
    }
}

extension InstalledPresentation.MediaFile {
    /// The bridge's view of a stored media file: the file name stands in for a missing title.
    init(_ record: MediaFileRecord) {
        id = record.mediaFileId
        fileName = record.fileName
        title = record.title ?? record.fileName
        mimeType = record.mimeType
    }
}
