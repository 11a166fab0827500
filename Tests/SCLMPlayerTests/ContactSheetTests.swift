import SCLMBrowser
import SCLMTestSupport
import Testing

@testable import SCLMPlayer

/// The screenshots of each package go to a folder named after it that never leaves the screenshots folder.
@Suite(.tags(.small)) struct ContactSheetTests {
    @Test(
        arguments: [
            ("build/deck.zip", "deck"), ("deck", "deck"), ("build/...zip", "package"), ("..zip", "package"),
            (".zip", ".zip"), ("build/..", "package"), (".", "package"), ("/", "_"), ("", "package"),
            ("a\u{202E}gpj.zip", "a_gpj"), ("line\nbreak\u{2028}.zip", "line_break_"), ("v1.2.zip", "v1.2"),
        ] as [(String, String)])
    func aPackageFolderNameIsOneSafeComponent(_ path: String, _ expected: String) {
        let name = ContactSheet.folderName(forPackage: path)
        #expect(name == expected)
        #expect(!name.isEmpty && name != "." && name != ".." && !name.contains("/"))
    }

    @Test func packagesWithTheSameFolderNameGetNumberedFolders() {
        var sheet = ContactSheet(viewport: BrowserOptions.Viewport(width: 800, height: 600))
        let folders = ["a/deck.zip", "b/deck.zip", "...zip", "..zip", "deck-2.zip"].map {
            sheet.folder(forPackage: $0)
        }
        #expect(folders == ["deck", "deck-2", "package", "package-2", "deck-2-2"])
    }

    /// A slide with a picture is linked; one without gets a placeholder that says why, never a link.
    @Test func slidesWithoutAPictureGetAPlaceholderWithTheReason() {
        var sheet = ContactSheet(viewport: BrowserOptions.Viewport(width: 800, height: 600))
        let folder = sheet.folder(forPackage: "deck.zip")
        sheet.add(
            package: "deck.zip", folder: folder,
            slides: SlideTally([
                .init(slide: "index.html", status: .rendered, image: "deck/index.png"),
                .init(slide: "spin.html", status: .timedOut(.window), image: nil),
                .init(slide: "crash.html", status: .crashed, image: nil),
                .init(slide: "late.html", status: .notReached, image: nil),
            ]))
        let html = sheet.html
        #expect(html.ranges(of: "<img ").count == 1, "one image")
        #expect(html.contains(#"<img src="deck/index.png""#))
        #expect(!html.contains("spin.png") && !html.contains("crash.png") && !html.contains("late.png"))
        #expect(html.contains("timed out (window), RENDER-TIMEOUT"))
        #expect(html.contains("its page crashed, RENDER-CRASHED"))
        #expect(html.contains("the run ended before it, RENDER-NOT-REACHED"))
        #expect(html.contains("4 slides: 1 rendered, 1 timed out, 1 crashed, 1 not reached"))
    }
}
