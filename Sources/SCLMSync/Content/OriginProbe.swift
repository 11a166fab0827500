import Foundation
import SCLMHTTP

/// The question a download through a site cache first asks the blob's origin directly: a `HEAD` on the
/// signed URL, for the blob's strong `ETag` (what the cache is asked for and keyed on) and its size.
enum OriginProbe {
    /// The origin's strong `ETag` of `link`'s blob; `nil` when it sends none or only a weak one (the cache
    /// cannot verify such a blob, so it is fetched from the origin).
    ///
    /// - Throws: ``HTTPError`` for a failed exchange or an error status (a 403 renews the link);
    ///   ``SyncError`` (`.badPackage`) when the origin's size is not the announced `fileSize`.
    static func probe(_ link: BlobLink, transport: any HTTPTransport, subject: String) async throws -> String? {
        var request = HTTPRequest(url: link.url)
        request.method = .head
        let response = try await transport.send(request)
        guard response.isSuccess else { throw HTTPError(response: response, method: .head) }
        if let length = response.headers["Content-Length"].flatMap({ Int64($0) }), length != link.fileSize {
            throw SyncError(
                .badPackage, subject: subject,
                detail:
                    "the origin holds \(length) bytes but the server announced \(link.fileSize); nothing was "
                    + "downloaded, run `sclm sync` again later")
        }
        guard let tag = response.headers["ETag"], tag.hasPrefix("\""), tag.count > 2 else { return nil }
        return tag
    }
}
