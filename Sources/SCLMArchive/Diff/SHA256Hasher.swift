import CCrypto

/// SHA-256 of a byte stream, through libcrypto's EVP interface: fed block by block, so a file is hashed as
/// it streams past without being held in memory.
///
/// A reference type because a ``PackageSink`` is a value: one hasher belongs to the one sink reading the
/// current file, which is never shared between threads.
final class SHA256Hasher: @unchecked Sendable {
    private let context: OpaquePointer?

    /// A hasher with nothing fed yet.
    init() {
        context = EVP_MD_CTX_new()
        if let context { EVP_DigestInit_ex(context, EVP_sha256(), nil) }
    }

    deinit { EVP_MD_CTX_free(context) }

    /// Feeds the next bytes.
    func update(_ bytes: UnsafeRawBufferPointer) {
        guard let context, let base = bytes.baseAddress, !bytes.isEmpty else { return }
        EVP_DigestUpdate(context, base, bytes.count)
    }

    /// The digest of everything fed, as 64 lowercase hexadecimal digits ("" if libcrypto failed).
    func finish() -> String {
        var digest = [UInt8](repeating: 0, count: Int(EVP_MAX_MD_SIZE))
        var length: UInt32 = 0
        guard let context, EVP_DigestFinal_ex(context, &digest, &length) == 1 else { return "" }
        return digest.prefix(Int(length)).map { byte in
            let hex = String(byte, radix: 16)
            return byte < 16 ? "0" + hex : hex
        }.joined()
    }

    /// The SHA-256 of `bytes`, as hexadecimal digits.
    static func digest(_ bytes: [UInt8]) -> String {
        let hasher = SHA256Hasher()
        bytes.withUnsafeBytes { hasher.update($0) }
        return hasher.finish()
    }
}
