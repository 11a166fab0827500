import CCurl
import SCLMCore

/// What the transfers of one ``CurlTransport`` share and no other transport sees: a libcurl share handle
/// holding their cookies, DNS cache, TLS session cache and connection cache, and the cookie jar file.
///
/// Keeping the connection cache per session matters under a ``NetworkRule``: a connection another
/// transport opened without the rule is never reused by a transfer the rule governs, so each connection
/// such a transfer uses was admitted when it was opened. Made by ``CurlEngine/makeSession(cookieJar:)``;
/// the engine frees the share handle when it stops.
final class CurlSession: @unchecked Sendable {
    // Invariant: after `init`, `share` is used only on the engine thread (set on easy handles there and
    // freed there when the engine stops), so libcurl needs no lock callbacks for it.
    let share: UnsafeMutableRawPointer
    /// The jar cookies persist in; `nil` keeps them in memory for the engine's lifetime.
    let cookieJar: CookieJar?

    init(cookieJar: CookieJar?) {
        guard let share = curl_share_init() else {
            preconditionFailure("libcurl could not allocate a share handle (out of memory)")
        }
        self.share = share
        self.cookieJar = cookieJar
        let shared = [CURL_LOCK_DATA_COOKIE, CURL_LOCK_DATA_DNS, CURL_LOCK_DATA_SSL_SESSION, CURL_LOCK_DATA_CONNECT]
        for data in shared {
            _ = sclm_curl_share_setopt_long(share, CURLSHOPT_SHARE, Int(data.rawValue))
        }
    }

    /// Frees the share handle; called on the engine thread once no easy handle uses it.
    func close() {
        curl_share_cleanup(share)
    }
}
