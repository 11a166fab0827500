/// How much of the content catalog is stored, for `sclm status`.
package struct CatalogCounts: Sendable, Equatable {
    /// Stored clients.
    package var clients = 0
    /// Stored presentations.
    package var presentations = 0
    /// Presentations with an installed revision.
    package var installed = 0
    /// Presentations whose installed revision is older than the server's.
    package var updatesAvailable = 0
    /// Stored slides.
    package var slides = 0
    /// Stored media files.
    package var mediaFiles = 0

    /// Creates counts (all zero by default).
    package init(
        clients: Int = 0, presentations: Int = 0, installed: Int = 0, updatesAvailable: Int = 0, slides: Int = 0,
        mediaFiles: Int = 0
    ) {
        self.clients = clients
        self.presentations = presentations
        self.installed = installed
        self.updatesAvailable = updatesAvailable
        self.slides = slides
        self.mediaFiles = mediaFiles
    }
}

/// How many analytics sessions are stored, for `sclm status`.
package struct SessionCounts: Sendable, Equatable {
    /// Every stored session.
    package var sessions: Int
    /// Sessions that may still be restored (state 0, 3 or 4).
    package var unfinished: Int

    /// Creates counts.
    package init(sessions: Int, unfinished: Int) {
        self.sessions = sessions
        self.unfinished = unfinished
    }
}
