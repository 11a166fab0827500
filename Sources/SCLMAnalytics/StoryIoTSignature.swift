import CCrypto
import Foundation
import SCLMCore

/// The request signature StoryIoT checks (docs/analytics.md, "The wire format").
///
/// The signed text is `key=<key>expiration=<expiration>` (UTF-8); the MAC is HMAC-SHA512 under the
/// secret, base64-encoded with `+` replaced by `-` and `/` by `_`. The `=` padding is kept, as StoryIoT's
/// own clients send it (its documented example ends in `==`).
package enum StoryIoTSignature {
    /// The signature of `key` and `expiration` under `secret`.
    ///
    /// ```swift
    /// let expiration = StoryIoTSignature.expiration(at: now, validFor: .seconds(180))
    /// let signature = StoryIoTSignature.sign(key: key, expiration: expiration, secret: secret)
    /// ```
    package static func sign(key: String, expiration: String, secret: String) -> String {
        let mac = hmacSHA512(key: Data(secret.utf8), message: Data("key=\(key)expiration=\(expiration)".utf8))
        let base64 = mac.base64EncodedData().map { byte in
            switch byte {
            case UInt8(ascii: "+"): UInt8(ascii: "-")
            case UInt8(ascii: "/"): UInt8(ascii: "_")
            default: byte
            }
        }
        return String(decoding: base64, as: UTF8.self)
    }

    /// The `expiration` parameter: ISO-8601 in UTC, whole seconds (`2026-03-01T09:02:49Z`), `lifetime`
    /// after `now`.
    package static func expiration(at now: Date, validFor lifetime: Duration) -> String {
        let seconds = (now.timeIntervalSince1970 + lifetime.inSeconds).rounded(.down)
        return CivilTime(epochSeconds: Int64(seconds)).text + "Z"
    }

    /// HMAC-SHA512 of `message` under `key`, through libcrypto.
    static func hmacSHA512(key: Data, message: Data) -> Data {
        var mac = [UInt8](repeating: 0, count: 64)
        let succeeded = key.withUnsafeBytes { keyBytes in
            message.withUnsafeBytes { messageBytes in
                sclm_crypto_hmac_sha512(
                    keyBytes.baseAddress, Int32(keyBytes.count),
                    messageBytes.baseAddress?.assumingMemoryBound(to: UInt8.self), messageBytes.count, &mac)
            }
        }
        // HMAC with SHA-512 only fails when libcrypto cannot allocate; nothing sensible can go on then.
        precondition(succeeded == 1, "libcrypto HMAC-SHA512 failed")
        return Data(mac)
    }
}
