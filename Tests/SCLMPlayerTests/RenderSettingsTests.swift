import Foundation
import SCLMCore
import SCLMTestSupport
import Testing

@testable import SCLMPlayer

/// The settings a `validate --render` run gives its bridge modules, and the advice its findings give.
@Suite(.tags(.small)) struct RenderSettingsTests {
    /// `--home-settings` reads the user's settings (never writes them); `--config` wins over them.
    @Test func homeSettingsAreReadAndOverridden() throws {
        let folder = TemporaryDirectory(prefix: "sclm-render-settings")
        let user = Home(root: folder.appending("user"))
        let render = Home(root: folder.appending("render"))
        try user.prepare()
        try render.prepare()
        try Configuration(stored: ["osam.versionCode": "7", "osam.package": "com.example"]).save(to: user.configPath)
        let before = try Data(contentsOf: URL(fileURLWithPath: user.configPath))
        let settings = RenderSettings(usesHomeSettings: true, overrides: ["osam.versionCode": "100"])
        try settings.write(from: user, to: render)
        let written = try Configuration.load(from: render.configPath, environment: [:]).stored
        #expect(written == ["osam.versionCode": "100", "osam.package": "com.example"])
        #expect(try Data(contentsOf: URL(fileURLWithPath: user.configPath)) == before)
    }

    @Test func adviceNamesTheOptionARenderReads() {
        let message =
            "OSAM needs osam.versionCode: set it with `sclm config set osam.versionCode 100` and restart the bridge"
        #expect(
            RenderSettings.renderAdvice(message)
                == "OSAM needs osam.versionCode: set it with `--config osam.versionCode=100` (or --home-settings)")
        #expect(RenderSettings.renderAdvice("no advice here") == "no advice here")
    }
}
