import Foundation
import SCLMCore

/// A package folder served to the browser from a private origin, by answering the page's requests.
///
/// With `Fetch.enable` every request of the page pauses in the browser; ``answer(_:on:report:)`` fulfils
/// requests for the origin from the folder (MIME type by extension, 404 for what the package lacks,
/// `Range` requests as 206 slices of at most ``maximumChunk`` bytes, paths that never leave the folder)
/// and refuses every other host, as on an offline tablet. Content never sees `file://` and there is no
/// HTTP server: the browser's network stack never leaves the process.
package struct PackageSite: Sendable, Equatable {
    /// The origin's host name (`.invalid` can never resolve, so nothing real is shadowed).
    package var host: String
    /// The unpacked package.
    package var root: String

    /// The largest slice answered for one `Range` request (bounded memory, and `<video>` keeps asking).
    package static let maximumChunk: Int64 = 1 << 20
    /// The largest file answered whole (without `Range`).
    package static let maximumWholeFile: Int64 = 256 << 20

    /// Creates a site for `root` on `host`.
    package init(host: String = "presentation.sclm.invalid", root: String) {
        self.host = host
        self.root = root
    }

    /// `https://host/`.
    package var origin: String { "https://\(host)" }

    /// The URL of `path` (a package-relative path such as `index.html`).
    package func url(of path: String) -> String {
        origin + "/" + (path.addingPercentEncoding(withAllowedCharacters: .urlPathAllowed) ?? path)
    }

    /// The package-relative path of `url` when it belongs to this origin (`""` for the origin itself).
    package func packagePath(of url: String) -> String? {
        guard url.hasPrefix(origin + "/") || url == origin else { return nil }
        var rest = url.dropFirst(origin.count)
        if let cut = rest.firstIndex(where: { $0 == "?" || $0 == "#" }) { rest = rest[..<cut] }
        let path = String(rest.drop { $0 == "/" })
        return path.removingPercentEncoding ?? path
    }

    /// Answers one `Fetch.requestPaused` event on `page`; `report` hears of refused and missing requests.
    package func answer(_ params: JSONValue, on page: BrowserPage, report: @Sendable (PageIssue) -> Void) {
        guard let requestId = params["requestId"]?.stringValue, let url = params["request"]?["url"]?.stringValue else {
            return
        }
        guard let path = packagePath(of: url) else {
            report(.remoteRequest(url: url))
            return page.send("Fetch.failRequest", ["requestId": .string(requestId), "errorReason": "BlockedByClient"])
        }
        let headers = params["request"]?["headers"]?.objectValue ?? [:]
        let range = headers.first { $0.key.lowercased() == "range" }?.value.stringValue
        let response = respond(to: path.isEmpty ? "index.html" : path, range: range)
        // Browsers ask for /favicon.ico on their own; content never did.
        if response.code == 404 && path != "favicon.ico" { report(.missingFile(url: url, path: path)) }
        page.send("Fetch.fulfillRequest", response.params(requestId: requestId))
    }

    /// The response for `path`.
    func respond(to path: String, range: String?) -> FileResponse {
        guard let file = ContentPath.regularFile(path, inside: root), let size = FileSystem.size(of: file),
            let handle = FileHandle(forReadingAtPath: file)
        else { return FileResponse.status(404, "\(path) is not in the package") }
        defer { try? handle.close() }
        var headers = ["Content-Type": MIMEType.of(path), "Accept-Ranges": "bytes", "Cache-Control": "no-cache"]
        var slice = ByteRange(start: 0, end: size - 1)
        var code = 200
        switch range.flatMap({ ByteRange.resolve($0, size: size, maximumChunk: Self.maximumChunk) }) {
        case .failure?:
            var response = FileResponse.status(416, "range not satisfiable")
            response.headers["Content-Range"] = "bytes */\(size)"
            return response
        case .success(let requested)?:
            slice = requested
            code = 206
            headers["Content-Range"] = "bytes \(requested.start)-\(requested.end)/\(size)"
        case nil:
            guard size <= Self.maximumWholeFile else {
                return FileResponse.status(413, "\(path) is too large to send whole")
            }
        }
        guard size > 0 else { return FileResponse(code: 200, headers: headers, body: Data()) }
        do {
            try handle.seek(toOffset: UInt64(slice.start))
            let body = try handle.read(upToCount: Int(slice.count)) ?? Data()
            return FileResponse(code: code, headers: headers, body: body)
        } catch {
            return FileResponse.status(500, "cannot read \(path): \(error.localizedDescription)")
        }
    }
}

/// A response to a paused request: status, headers, body.
struct FileResponse: Equatable {
    var code: Int
    var headers: [String: String]
    var body: Data

    /// A short plain-text response.
    static func status(_ code: Int, _ text: String) -> FileResponse {
        FileResponse(code: code, headers: ["Content-Type": "text/plain; charset=utf-8"], body: Data(text.utf8))
    }

    /// The `Fetch.fulfillRequest` params.
    func params(requestId: String) -> JSONValue {
        var all = headers
        all["Content-Length"] = String(body.count)
        return [
            "requestId": .string(requestId), "responseCode": .int(Int64(code)),
            "responseHeaders": .array(
                all.sorted { $0.key < $1.key }.map { ["name": .string($0.key), "value": .string($0.value)] }),
            "body": .string(body.base64EncodedString()),
        ]
    }
}
