import Foundation
import SCLMCore
import SCLMTestSupport
import Testing

@testable import SCLMBrowser

/// How the private origin answers a page's requests from the package folder.
@Suite(.tags(.medium))
struct PackageSiteTests {
    let folder = TemporaryDirectory(prefix: "sclm-site")
    let site: PackageSite

    init() throws {
        try folder.write("<h1>hi</h1>", to: "deck/index.html")
        try folder.write(String(repeating: "x", count: 3 << 20), to: "deck/mediafiles/clip.mp4")
        try folder.write("secret", to: "outside.txt")
        site = PackageSite(host: "presentation-7.sclm.invalid", root: folder.appending("deck"))
    }

    @Test func servesFilesWithTheirTypeAndTheOriginRootAsIndex() {
        let response = site.respond(to: "index.html", range: nil)
        #expect(response.code == 200)
        #expect(response.headers["Content-Type"] == "text/html")
        #expect(String(decoding: response.bytes, as: UTF8.self) == "<h1>hi</h1>")
        #expect(site.packagePath(of: "https://presentation-7.sclm.invalid/") == "")
        #expect(site.packagePath(of: "https://presentation-7.sclm.invalid/css/a%20b.css?v=2#top") == "css/a b.css")
        #expect(site.packagePath(of: "https://cdn.example.com/index.html") == nil)
        #expect(site.packagePath(of: "https://presentation-7.sclm.invalid.example.com/x") == nil)
    }

    @Test func answersMissingFilesAndEscapes404() {
        #expect(site.respond(to: "missing.js", range: nil).code == 404)
        #expect(site.respond(to: "../outside.txt", range: nil).code == 404)
        #expect(site.respond(to: "mediafiles", range: nil).code == 404)
        let decoded = site.packagePath(of: "https://presentation-7.sclm.invalid/%2e%2e/outside.txt") ?? ""
        #expect(site.respond(to: decoded, range: nil).code == 404)
    }

    @Test func answersRangesWithBoundedSlices() {
        let size = Int64(3 << 20)
        let first = site.respond(to: "mediafiles/clip.mp4", range: "bytes=0-")
        #expect(first.code == 206)
        #expect(Int64(first.bytes.count) == PackageSite.maximumChunk)
        #expect(first.headers["Content-Range"] == "bytes 0-\(PackageSite.maximumChunk - 1)/\(size)")
        let tail = site.respond(to: "mediafiles/clip.mp4", range: "bytes=-100")
        #expect(tail.headers["Content-Range"] == "bytes \(size - 100)-\(size - 1)/\(size)")
        #expect(tail.bytes.count == 100)
        #expect(site.respond(to: "mediafiles/clip.mp4", range: "bytes=\(size)-").code == 416)
    }

    @Test func wholeFilesAreReadOnlyWhenAnsweredAndRefusedAboveTheLimit() throws {
        // Sparse: the test never holds the bytes either.
        for (name, size) in [("big.bin", PackageSite.maximumWholeFile + 1), ("medium.bin", 3 << 20)] {
            let path = folder.appending("deck/" + name)
            #expect(FileManager.default.createFile(atPath: path, contents: nil))
            #expect(truncate(path, off_t(size)) == 0)
        }
        let refused = site.respond(to: "big.bin", range: nil)
        #expect(refused.code == 413)
        #expect(refused.fileSize == PackageSite.maximumWholeFile + 1)
        #expect(String(decoding: refused.bytes, as: UTF8.self).contains("above 32 MiB only to Range requests"))
        #expect(site.respond(to: "big.bin", range: "bytes=0-").code == 206, "Range slices are still served")
        let whole = site.respond(to: "medium.bin", range: nil)
        #expect(whole.body == .file(folder.appending("deck/medium.bin"), size: 3 << 20))
        let params = whole.params(requestId: "r2", contentLength: 3 << 20)
        #expect(params["body"] == nil, "the body is written straight into the message, later")
        let headers = params["responseHeaders"]?.arrayValue ?? []
        #expect(headers.contains(["name": "Content-Length", "value": "3145728"]))
    }

    @Test func fulfilParamsCarryHeadersAndBase64Body() {
        let params = site.respond(to: "index.html", range: nil).params(requestId: "r1")
        #expect(params["responseCode"] == 200)
        #expect(params["body"]?.stringValue == Data("<h1>hi</h1>".utf8).base64EncodedString())
        let headers = params["responseHeaders"]?.arrayValue ?? []
        #expect(headers.contains(["name": "Content-Length", "value": "11"]))
    }

    @Test func byteRangesParseTheThreeForms() {
        #expect(
            ByteRange.resolve("bytes=10-19", size: 100, maximumChunk: 50) == .success(ByteRange(start: 10, end: 19)))
        #expect(ByteRange.resolve("bytes=10-", size: 100, maximumChunk: 50) == .success(ByteRange(start: 10, end: 59)))
        #expect(ByteRange.resolve("bytes=-30", size: 100, maximumChunk: 50) == .success(ByteRange(start: 70, end: 99)))
        #expect(ByteRange.resolve("bytes=0-1,5-6", size: 100, maximumChunk: 50) == nil)
        #expect(ByteRange.resolve("items=0-1", size: 100, maximumChunk: 50) == nil)
    }

    @Test func mimeTypesFollowTheExtension() {
        #expect(MIMEType.of("js/storyclm.js") == "text/javascript")
        #expect(MIMEType.of("css/deck.css") == "text/css")
        #expect(MIMEType.of("mediafiles/clip.MP4") == "video/mp4")
        #expect(MIMEType.of("fonts/a.woff2") == "font/woff2")
        #expect(MIMEType.of("noextension") == "application/octet-stream")
        #expect(MIMEType.of("folder.d/file") == "application/octet-stream")
    }

    @Test func byteRangesNearTheLargestOffsetDoNotTrap() {
        let size = Int64.max
        #expect(
            ByteRange.resolve("bytes=9223372036854775806-", size: size, maximumChunk: 50)
                == .success(ByteRange(start: .max - 1, end: .max - 1)))
        #expect(
            ByteRange.resolve("bytes=-9223372036854775807", size: size, maximumChunk: 50)
                == .success(ByteRange(start: 0, end: 49)))
        #expect(ByteRange.resolve("bytes=9223372036854775808-", size: size, maximumChunk: 50) == nil)
    }
}
