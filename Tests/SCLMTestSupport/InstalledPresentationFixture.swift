import Foundation
import SCLMCore
import SCLMStore

/// An installed presentation written straight into a home: client, presentation, slide and media-file
/// rows in `sclm.db`, and the unpacked package under `content/<client>/<presentation>/sources`.
///
/// Stands in for `sclm sync` wherever a test needs content on disk (the bridge, `sclm list`, …).
///
/// ```swift
/// let home = Home(root: folder.appending("home"))
/// try InstalledPresentationFixture(presentationId: 10).install(in: home)
/// ```
package struct InstalledPresentationFixture: Sendable {
    /// One slide: an HTML file at the package root and a `slides` row.
    package struct Slide: Sendable {
        package var name: String
        package var linkedSlides: [String]
        package var swipeNext: String?
        package var swipePrevious: String?
        /// The markup inside the file's `<head>`; `nil` writes a `clm-swipe-next` meta naming ``swipeNext``
        /// (empty without one).
        package var head: String?
        /// Whether the package holds the file (`false`: a slide the server lists but the package lacks).
        package var isPackaged: Bool

        /// Declares a slide.
        package init(
            _ name: String, linkedSlides: [String] = [], swipeNext: String? = nil, swipePrevious: String? = nil,
            head: String? = nil, isPackaged: Bool = true
        ) {
            self.name = name
            self.linkedSlides = linkedSlides
            self.swipeNext = swipeNext
            self.swipePrevious = swipePrevious
            self.head = head
            self.isPackaged = isPackaged
        }
    }

    /// One media file: a file in `sources/mediafiles` and a `media_files` row.
    package struct MediaFile: Sendable {
        package var fileName: String
        package var title: String
        package var mimeType: String
        package var contents: String

        /// Declares a media file.
        package init(
            _ fileName: String, title: String? = nil, mimeType: String = "application/pdf",
            contents: String = "%PDF-1.4\n"
        ) {
            self.fileName = fileName
            self.title = title ?? fileName
            self.mimeType = mimeType
            self.contents = contents
        }
    }

    package var clientId: Int64
    package var clientName: String
    package var presentationId: Int64
    package var name: String
    package var revision: Int64
    package var order: Int64
    package var shortDescription: String
    package var slides: [Slide]
    package var mediaFiles: [MediaFile]
    /// `false` writes the rows only (no `installedRevision`, no package folder): a synced but not downloaded presentation.
    package var isInstalled: Bool
    /// Other package files by path (`"extra.html": "<html>…"`), written with the slides.
    package var extraFiles: [String: String] = [:]

    /// Declares a presentation; by default three linked slides and one PDF, installed.
    package init(
        presentationId: Int64 = 10, clientId: Int64 = 1, clientName: String = "Demo client", name: String = "Demo deck",
        revision: Int64 = 3, order: Int64 = 1, shortDescription: String = "Demo",
        slides: [Slide] = [
            Slide("index.html", linkedSlides: ["slide1.html", "slide2.html"], swipeNext: "slide1.html"),
            Slide("slide1.html", linkedSlides: ["slide2.html"], swipeNext: "slide2.html", swipePrevious: "index.html"),
            Slide("slide2.html", linkedSlides: ["index.html"], swipePrevious: "slide1.html"),
        ],
        mediaFiles: [MediaFile] = [MediaFile("brochure.pdf", title: "Brochure")], isInstalled: Bool = true
    ) {
        self.presentationId = presentationId
        self.clientId = clientId
        self.clientName = clientName
        self.name = name
        self.revision = revision
        self.order = order
        self.shortDescription = shortDescription
        self.slides = slides
        self.mediaFiles = mediaFiles
        self.isInstalled = isInstalled
    }

    /// The package folder this fixture writes in `home`.
    package func sourcesDirectory(in home: Home) -> String {
        home.sourcesDirectory(clientId: clientId, presentationId: presentationId)
    }

    /// Writes the rows (creating and migrating the database if needed) and, when installed, the package.
    ///
    /// - Throws: store or file errors.
    package func install(in home: Home) throws {
        try home.prepare()
        let db = try Database(path: home.databasePath)
        try Migrator.sclm.migrate(db)
        try db.write { db in
            try db.execute("INSERT OR IGNORE INTO clients(clientId, name) VALUES (?, ?)", [clientId, clientName])
            try db.execute(
                """
                INSERT INTO presentations(presentationId, clientId, name, shortDescription, longDescription, revision,
                    "order", syncState, installedRevision, installedAt, visibility)
                VALUES (?, ?, ?, ?, '', ?, ?, ?, ?, ?, 1)
                """,
                [
                    presentationId, clientId, name, shortDescription, revision, order, isInstalled ? 5 : 1,
                    isInstalled ? revision : nil, isInstalled ? "2026-01-01T00:00:00.000Z" : nil,
                ])
            for (position, slide) in slides.enumerated() {
                try db.execute(
                    """
                    INSERT INTO slides(slideId, presentationId, position, revision, name, linkedSlides, swipeNext, swipePrevious)
                    VALUES (?, ?, ?, 0, ?, ?, ?, ?)
                    """,
                    [
                        presentationId * 100 + Int64(position), presentationId, position, slide.name,
                        slide.linkedSlides.joined(separator: ","), slide.swipeNext, slide.swipePrevious,
                    ])
            }
            for (position, file) in mediaFiles.enumerated() {
                try db.execute(
                    """
                    INSERT INTO media_files(mediaFileId, presentationId, position, revision, fileName, title, mimeType, fileSize)
                    VALUES (?, ?, ?, 0, ?, ?, ?, ?)
                    """,
                    [
                        presentationId * 100 + Int64(position), presentationId, position, file.fileName, file.title,
                        file.mimeType, file.contents.utf8.count,
                    ])
            }
        }
        guard isInstalled else { return }
        let sources = sourcesDirectory(in: home)
        try writePackage(to: sources)
    }

    /// Writes the package files: the packaged slides, ``extraFiles`` and the media files.
    private func writePackage(to sources: String) throws {
        try FileSystem.makeDirectory(sources + "/mediafiles", mode: 0o755)
        for slide in slides where slide.isPackaged {
            let head = slide.head ?? #"<meta name="clm-swipe-next" content="\#(slide.swipeNext ?? "")">"#
            let html = """
                <!DOCTYPE html>
                <html><head>\(head)</head>
                <body><h1>\(slide.name)</h1><script src="js/storyclm.js"></script></body></html>

                """
            try Data(html.utf8).write(to: URL(fileURLWithPath: sources + "/" + slide.name))
        }
        for (path, contents) in extraFiles {
            try Data(contents.utf8).write(to: URL(fileURLWithPath: sources + "/" + path))
        }
        for file in mediaFiles {
            try Data(file.contents.utf8).write(to: URL(fileURLWithPath: sources + "/mediafiles/" + file.fileName))
        }
    }

    /// Stores a login (`auth_tokens` row) so the bridge reports `subject`/`userName` as the user;
    /// `grantType` `client_credentials` is a service login.
    ///
    /// - Throws: store errors.
    package static func logIn(subject: String, userName: String, grantType: String = "password", in home: Home) throws {
        try home.prepare()
        let db = try Database(path: home.databasePath)
        try Migrator.sclm.migrate(db)
        try db.write { db in
            try db.execute(
                """
                INSERT OR REPLACE INTO auth_tokens(id, grantType, accessToken, refreshToken, expiresAt, issuedAt, subject, userName)
                VALUES (1, ?, 'test-access-token', 'test-refresh-token', 4102444800, 1767225600, ?, ?)
                """, [grantType, subject, userName])
        }
    }
}
