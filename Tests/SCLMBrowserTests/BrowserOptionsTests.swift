import Foundation
import SCLMTestSupport
import Testing

@testable import SCLMBrowser

/// Parsing `--viewport`, and which browser runs when none is named.
@Suite(.tags(.small))
struct BrowserOptionsTests {
    @Test func viewportsParseWidthByHeight() {
        #expect(BrowserOptions.Viewport(parsing: "1024x768") == BrowserOptions.Viewport(width: 1024, height: 768))
        #expect(BrowserOptions.Viewport(parsing: "800X600")?.height == 600)
        #expect(BrowserOptions.Viewport(parsing: "10x10") == nil)
        #expect(BrowserOptions.Viewport(parsing: "1024") == nil)
    }

    @Test func headlessPrefersTheHeadlessShellAndAKioskTheFullBrowser() throws {
        let folder = TemporaryDirectory(prefix: "sclm-browsers")
        let full = try executable("chromium", in: folder.path + "/full")
        let shell = try executable("chromium-headless-shell", in: folder.path + "/shell")
        let path = folder.path + "/full:" + folder.path + "/shell"
        #expect(try BrowserOptions(mode: .headless).resolvedExecutable(path: path) == shell)
        #expect(try BrowserOptions(mode: .kiosk).resolvedExecutable(path: path) == full)
        #expect(try BrowserOptions(mode: .headless).resolvedExecutable(path: folder.path + "/full") == full)
        #expect(throws: BrowserError.self) {
            try BrowserOptions(mode: .kiosk).resolvedExecutable(path: folder.path + "/shell")
        }
    }

    /// An empty executable file `name` in `folder` (created): all that the search on `PATH` looks at.
    private func executable(_ name: String, in folder: String) throws -> String {
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let path = folder + "/" + name
        #expect(FileManager.default.createFile(atPath: path, contents: Data(), attributes: [.posixPermissions: 0o755]))
        return path
    }
}
