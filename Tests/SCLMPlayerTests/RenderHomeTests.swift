import Foundation
import SCLMArchive
import SCLMBridge
import SCLMBridgeModules
import SCLMCore
import SCLMTestSupport
import Testing

@testable import SCLMPlayer

/// The throwaway home of `validate --render`: its settings, and each package installed as a presentation
/// the hosts of `sclm bridge` can load.
@Suite(.tags(.small)) struct RenderHomeTests {
    /// Only the render's settings apply: none of the caller's `SCLM_*` variables reach the home's modules.
    @Test func theHomeHasTheRendersSettingsAndNoSCLMVariables() throws {
        let folder = TemporaryDirectory(prefix: "sclm-render-home")
        let renderHome = try RenderHome.make(
            settings: RenderSettings(overrides: ["osam.versionCode": "100"]), userHome: Home(root: folder.path),
            environment: ["SCLM_HOME": "/elsewhere", "SCLM_OSAM_VERSION_CODE": "5", "LANG": "de_DE.UTF-8"])
        #expect(renderHome.environment == ["LANG": "de_DE.UTF-8"])
        let stored = try Configuration.load(from: renderHome.home.configPath, environment: [:]).stored
        #expect(stored == ["osam.versionCode": "100"])
        renderHome.remove()
        #expect(!FileSystem.exists(renderHome.home.root))
    }

    /// A folder is linked, not copied, and loads as an installed presentation named after it; its slides
    /// are the root-level HTML files, `index.html` first.
    @Test func aFolderIsLinkedAndLoadsAsAnInstalledPresentation() async throws {
        let folder = TemporaryDirectory(prefix: "sclm-render-install")
        let package = folder.appending("Cardiora deck")
        try FileManager.default.createDirectory(atPath: package + "/sub", withIntermediateDirectories: true)
        for name in ["b.html", "index.html", "a.htm", "C.HTML", "notes.txt", "sub/d.html"] {
            try Data("<p>\(name)</p>".utf8).write(to: URL(fileURLWithPath: package + "/" + name))
        }
        let hosting = try StoreHosting(root: folder.appending("home"))
        let renderHome = RenderHome(home: hosting.home, environment: [:])
        let slides = try await renderHome.install(
            package, kind: .folder, presentationId: 7, policy: Policy(), store: try hosting.store())
        #expect(slides == ["index.html", "C.HTML", "a.htm", "b.html"])
        let (presentation, _) = try await hosting.makePresentationHost(
            presentationId: 7, output: BridgeOutput(fileDescriptor: -1))
        #expect(presentation.name == "Cardiora deck")
        #expect(presentation.clientId == RenderHome.clientId && presentation.revision == 1)
        #expect(try FileManager.default.destinationOfSymbolicLink(atPath: presentation.sourcesDirectory) == package)
    }

    /// A zip is unpacked with the package policy into the presentation's folder.
    @Test func aZipIsUnpackedIntoThePresentationsFolder() async throws {
        let folder = TemporaryDirectory(prefix: "sclm-render-install")
        var zip = ZipBuilder()
        zip.file("index.html", "<html></html>")
        zip.file("js/app.js", "app()")
        try zip.write(to: folder.appending("deck.zip"))
        let hosting = try StoreHosting(root: folder.appending("home"))
        let renderHome = RenderHome(home: hosting.home, environment: [:])
        let slides = try await renderHome.install(
            folder.appending("deck.zip"), kind: .zip, presentationId: 1, policy: Policy(), store: try hosting.store())
        #expect(slides == ["index.html"])
        let sources = hosting.home.sourcesDirectory(clientId: RenderHome.clientId, presentationId: 1)
        #expect(try String(contentsOfFile: sources + "/js/app.js", encoding: .utf8) == "app()")
        let (presentation, _) = try await hosting.makePresentationHost(
            presentationId: 1, output: BridgeOutput(fileDescriptor: -1))
        #expect(presentation.name == "deck")
    }

    /// A presentation that is not installed fails before any module starts.
    @Test func anUnknownPresentationIsNotFound() async throws {
        let folder = TemporaryDirectory(prefix: "sclm-render-install")
        let hosting = try StoreHosting(root: folder.appending("home"))
        await #expect {
            _ = try await hosting.makePresentationHost(presentationId: 9, output: BridgeOutput(fileDescriptor: -1))
        } throws: { error in
            (error as? SCLMError)?.category == .notFound
        }
    }
}
