import CCurl
import Foundation

/// The host and port of a URL as libcurl reads it (`curl_url`, curl_url_get(3)).
///
/// A ``NetworkRule`` judges a hop on libcurl's reading of its URL rather than Foundation's, so a URL
/// the two parse differently cannot show the rule one host and connect to another; libcurl also
/// normalises numeric IPv4 forms (`127.1`, `0x7f.0.0.1`) to the dotted quad the rule compares.
enum CurlURL {
    /// The host (IPv6 in brackets, as libcurl returns it) and port (the scheme's default when none is
    /// written) libcurl will connect to for `url`, or `nil` when libcurl cannot parse it.
    static func authority(of url: URL) -> (host: String, port: Int)? {
        guard let handle = curl_url() else { return nil }
        defer { curl_url_cleanup(handle) }
        guard curl_url_set(handle, CURLUPART_URL, url.absoluteString, 0) == CURLUE_OK,
            let host = part(CURLUPART_HOST, of: handle),
            let port = part(CURLUPART_PORT, of: handle, flags: UInt32(CURLU_DEFAULT_PORT)).flatMap({ Int($0) })
        else { return nil }
        return (host, port)
    }

    private static func part(_ what: CURLUPart, of handle: OpaquePointer, flags: UInt32 = 0) -> String? {
        var text: UnsafeMutablePointer<CChar>?
        guard curl_url_get(handle, what, &text, flags) == CURLUE_OK, let text else { return nil }
        defer { curl_free(text) }
        return String(cString: text)
    }
}
