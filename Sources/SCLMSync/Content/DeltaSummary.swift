/// What a delta update saved: the `delta` object of an `installed` event.
package struct DeltaSummary: Sendable, Equatable, Encodable {
    /// Bytes received for the update (directory, changed entries, gaps between them).
    package var fetchedBytes: Int64
    /// The whole package's size.
    package var packageBytes: Int64
    /// Files fetched (new or changed).
    package var changedFiles: Int
    /// Files taken from the installed revision.
    package var reusedFiles: Int

    /// Creates a summary.
    package init(fetchedBytes: Int64, packageBytes: Int64, changedFiles: Int, reusedFiles: Int) {
        self.fetchedBytes = fetchedBytes
        self.packageBytes = packageBytes
        self.changedFiles = changedFiles
        self.reusedFiles = reusedFiles
    }
}
