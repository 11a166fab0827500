import Foundation
import SCLMCore

/// A package folder served to the browser from a private origin, by answering the page's requests.
///
/// With `Fetch.enable` every request of the page pauses in the browser; ``answer(_:on:report:)`` fulfils
/// requests for the origin from the folder (MIME type by extension, 404 for what the package lacks,
/// `Range` requests as 206 slices of at most ``maximumChunk`` bytes, paths that never leave the folder)
/// and refuses every other host, as on an offline tablet. Content never sees `file://` and there is no
/// HTTP server: the browser's network stack never leaves the process.
///
/// `Fetch.fulfillRequest` takes a body whole, base64 in one message, so memory is bounded twice: a file
/// above ``maximumWholeFile`` asked for without `Range` is answered 413 (the page sees a failed request)
/// and reported as ``PageIssue/tooLarge(url:path:size:limit:)``; and whole answers above ``maximumChunk``
/// are built one at a time, process-wide, straight into the message, which is written before the next
/// is built.
package struct PackageSite: Sendable, Equatable {
    /// The origin's host name (`.invalid` can never resolve, so nothing real is shadowed).
    package var host: String
    /// The unpacked package.
    package var root: String

    /// The largest slice answered for one `Range` request (bounded memory, and `<video>` keeps asking).
    package static let maximumChunk: Int64 = 1 << 20
    /// The largest file answered whole (without `Range`).
    package static let maximumWholeFile: Int64 = 32 << 20
    /// Where whole answers above ``maximumChunk`` are built and written, one at a time.
    private static let wholeAnswers = DispatchQueue(label: "sclm.browser.whole-answers")

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

    /// Answers one `Fetch.requestPaused` event on `page`; `report` hears of refused, missing and too large
    /// requests.
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
        switch response.body {
        case .bytes:
            // Browsers ask for /favicon.ico on their own; content never did.
            if response.code == 404 && path != "favicon.ico" { report(.missingFile(url: url, path: path)) }
            if response.code == 413, let size = response.fileSize {
                report(.tooLarge(url: url, path: path, size: size, limit: Self.maximumWholeFile))
            }
            page.send("Fetch.fulfillRequest", response.params(requestId: requestId))
        case .file(let file, let size):
            Self.wholeAnswers.async {
                Self.fulfill(requestId: requestId, with: response, file: file, size: size, on: page)
            }
        }
    }

    /// The response for `path`: its bytes, or (a whole file above ``maximumChunk``) where to read them.
    func respond(to path: String, range: String?) -> FileResponse {
        guard let file = ContentPath.regularFile(path, inside: root), let size = FileSystem.size(of: file) else {
            return FileResponse.status(404, "\(path) is not in the package")
        }
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
                var response = FileResponse.status(
                    413,
                    "\(path) is \(Self.mebibytes(size)); sclm answers files above "
                        + "\(Self.mebibytes(Self.maximumWholeFile)) only to Range requests")
                response.fileSize = size
                return response
            }
            if size > Self.maximumChunk {
                return FileResponse(code: 200, headers: headers, body: .file(file, size: size))
            }
        }
        guard size > 0 else { return FileResponse(code: 200, headers: headers, body: .bytes(Data())) }
        do {
            let handle = try FileHandle(forReadingFrom: URL(fileURLWithPath: file))
            defer { try? handle.close() }
            try handle.seek(toOffset: UInt64(slice.start))
            let body = try handle.read(upToCount: Int(slice.count)) ?? Data()
            return FileResponse(code: code, headers: headers, body: .bytes(body))
        } catch {
            return FileResponse.status(500, "cannot read \(path): \(error.localizedDescription)")
        }
    }

    /// `bytes` in whole MiB, rounded up (`"33 MiB"`).
    package static func mebibytes(_ bytes: Int64) -> String {
        "\((bytes + (1 << 20) - 1) >> 20) MiB"
    }

    /// Fulfils `requestId` with the whole of `file`, base64-encoded in slices straight into the message,
    /// which is written before this returns; a file that cannot be read is answered 500.
    private static func fulfill(
        requestId: String, with response: FileResponse, file: String, size: Int64, on page: BrowserPage
    ) {
        do {
            let handle = try FileHandle(forReadingFrom: URL(fileURLWithPath: file))
            defer { try? handle.close() }
            try page.connection.sendNow(
                "Fetch.fulfillRequest", response.params(requestId: requestId, contentLength: size),
                session: page.sessionId, member: "body", capacity: Int(size + 2) / 3 * 4
            ) { bytes in
                var remaining = size
                while remaining > 0 {
                    // A multiple of 3, so the slices' base64 texts join into the file's.
                    let slice = try handle.read(upToCount: Int(min(remaining, 3 << 20))) ?? Data()
                    guard !slice.isEmpty else { throw CocoaError(.fileReadUnknown) }
                    bytes.append(contentsOf: slice.base64EncodedData())
                    remaining -= Int64(slice.count)
                }
            }
        } catch {
            page.send(
                "Fetch.fulfillRequest",
                FileResponse.status(500, "cannot read \(file): \(error.localizedDescription)").params(
                    requestId: requestId))
        }
    }
}

/// A response to a paused request: status, headers, body.
struct FileResponse: Equatable {
    /// The body: bytes at hand, or a whole file read only while the answer is written.
    enum Body: Equatable {
        case bytes(Data)
        case file(String, size: Int64)
    }

    var code: Int
    var headers: [String: String]
    var body: Body
    /// The size of the file a 413 refused.
    var fileSize: Int64?

    init(code: Int, headers: [String: String], body: Body) {
        self.code = code
        self.headers = headers
        self.body = body
    }

    /// A short plain-text response.
    static func status(_ code: Int, _ text: String) -> FileResponse {
        FileResponse(code: code, headers: ["Content-Type": "text/plain; charset=utf-8"], body: .bytes(Data(text.utf8)))
    }

    /// The bytes of a ``Body/bytes(_:)`` body (empty for a file).
    var bytes: Data {
        if case .bytes(let data) = body { return data }
        return Data()
    }

    /// The `Fetch.fulfillRequest` params; the base64 `body` member is left out for a file body (see
    /// ``PackageSite``), whose `Content-Length` is `contentLength`.
    func params(requestId: String, contentLength: Int64? = nil) -> JSONValue {
        var all = headers
        all["Content-Length"] = String(contentLength ?? Int64(bytes.count))
        var params: [String: JSONValue] = [
            "requestId": .string(requestId), "responseCode": .int(Int64(code)),
            "responseHeaders": .array(
                all.sorted { $0.key < $1.key }.map { ["name": .string($0.key), "value": .string($0.value)] }),
        ]
        if case .bytes(let data) = body { params["body"] = .string(data.base64EncodedString()) }
        return .object(params)
    }
}
