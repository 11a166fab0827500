/// What the content phase does with one media file of a presentation it installs: keep the copy the
/// package brought, download it, or refuse the presentation (a pure decision, tested with tables of cases).
///
/// A media file is kept when the staging folder's `mediafiles/<fileName>` is a file with the announced size
/// (any size when the server announces none); a missing file, a folder in its place or a file of another size
/// is downloaded. A `fileName` that is not one plain file name (``MediaFileName``) refuses the presentation
/// before anything is looked at.
enum MediaFileStep: Sendable, Equatable {
    /// The package's copy is the right one.
    case keep
    /// Download it to `mediafiles/<name>`.
    case download(name: String)
    /// Refuse the presentation, for this reason.
    case refuse(detail: String)

    /// What is at a media file's destination in the staging folder.
    enum Existing: Sendable, Equatable {
        /// Nothing.
        case nothing
        /// A folder.
        case folder
        /// A file of `size` bytes (`nil` when its size cannot be read).
        case file(size: Int64?)
    }

    /// Decides about one media file.
    ///
    /// - Parameters:
    ///   - fileName: the server's `fileName`.
    ///   - fileSize: the server's `fileSize` (0 or less: none announced).
    ///   - existing: what is at `mediafiles/<name>` for a validated name.
    /// - Returns: the step.
    static func decide(fileName: String, fileSize: Int64, existing: (String) -> Existing) -> MediaFileStep {
        guard let name = MediaFileName.validated(fileName) else {
            return .refuse(detail: "its file name \(fileName.debugDescription) is not a plain file name")
        }
        guard case .file(let size) = existing(name), fileSize <= 0 || size == fileSize else {
            return .download(name: name)
        }
        return .keep
    }
}
