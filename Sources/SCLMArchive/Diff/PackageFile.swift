/// One file of a package as the diff compares it: its size and the SHA-256 of its bytes.
package struct PackageFile: Sendable, Hashable {
    /// The bytes of the file (decompressed for a zip).
    package let size: Int64
    /// The SHA-256 of those bytes, as 64 lowercase hexadecimal digits.
    package let sha256: String

    /// Creates a file record.
    package init(size: Int64, sha256: String) {
        self.size = size
        self.sha256 = sha256
    }
}
