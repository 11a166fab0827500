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
            sheet.add(package: $0, slides: ["index.html"])
        }
        #expect(folders == ["deck", "deck-2", "package", "package-2", "deck-2-2"])
    }
}
