/// The check a media file's `fileName` passes before it becomes a path under `sources/mediafiles/`:
/// the server's text must name one file in that folder, never a path out of it.
package enum MediaFileName {
    /// `name` when it is one safe path component, else `nil`: not empty, not `.` or `..`, no `/` or `\`,
    /// no control characters, at most 255 bytes.
    package static func validated(_ name: String) -> String? {
        guard !name.isEmpty, name != ".", name != "..", name.utf8.count <= 255 else { return nil }
        let unsafe = name.unicodeScalars.contains { scalar in
            scalar == "/" || scalar == "\\" || scalar.value < 0x20 || scalar.value == 0x7F
        }
        return unsafe ? nil : name
    }
}
