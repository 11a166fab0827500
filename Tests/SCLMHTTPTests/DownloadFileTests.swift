import Foundation
import SCLMCore
import SCLMTestSupport
import Testing

@testable import SCLMHTTP

/// What a download file makes of the numbers a server sends: `Content-Length` after a resume offset,
/// `Content-Range`, and a header line as libcurl hands it over.
@Suite(.tags(.small)) struct DownloadFileTests {
    let folder = TemporaryDirectory()

    private func resumedFile(at offset: Int64, maxBytes: Int64? = nil) throws -> DownloadFile {
        let path = folder.appending("blob.part")
        try Data(count: Int(offset)).write(to: URL(fileURLWithPath: path))
        let request = DownloadRequest(
            HTTPRequest(url: URL(fileURLWithPath: "/blob")), to: path, resumeOffset: offset, maxFileBytes: maxBytes)
        return try DownloadFile(request)
    }

    @Test func aContentLengthThatOverflowsAfterTheResumeOffsetIsABadResponse() throws {
        let file = try resumedFile(at: 10)
        defer { file.closeFile() }
        #expect {
            try file.begin(status: 206, headers: ["Content-Range": "bytes 10-19/20"], contentLength: .max)
        } throws: { error in
            (error as? HTTPError)?.code == .badResponse
        }
    }

    @Test func aContentLengthNearTheLargestNumberIsOverTheBudgetNotATrap() throws {
        let file = try resumedFile(at: 0, maxBytes: 100)
        defer { file.closeFile() }
        #expect {
            try file.begin(status: 200, headers: [:], contentLength: .max)
        } throws: { error in
            (error as? HTTPError)?.code == .budgetExceeded
        }
    }

    @Test func headerLinesAreFieldsStatusLinesOrIgnored() {
        func line(_ text: String) -> HTTPHeader.Line { Array(text.utf8).withUnsafeBytes(HTTPHeader.line) }
        #expect(line("HTTP/1.1 206 Partial Content\r\n") == .statusLine)
        #expect(
            line(" Content-Range : bytes 0-1/2 \r\n") == .field(HTTPHeader(name: "Content-Range", value: "bytes 0-1/2"))
        )
        #expect(line("ETag: \"a\rb\"\r\n") == .ignored)
        #expect(line("no colon\r\n") == .ignored)
        #expect(line("X-Empty:\r\n") == .field(HTTPHeader(name: "X-Empty", value: "")))
    }
}
