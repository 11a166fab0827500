import SCLMCore
import SCLMPlayer
import SCLMTestSupport
import Testing

@testable import SCLMCommands

/// `validate --render --config KEY=VALUE`: each argument checked as `sclm config set` checks it.
@Suite(.tags(.small)) struct RenderSettingsArgumentsTests {
    @Test func configValuesAreCheckedAsConfigSetChecksThem() throws {
        let settings = try RenderSettings.parse(
            ["osam.versionCode=100", "osam.versionCode=101"], usesHomeSettings: false)
        #expect(settings.overrides == ["osam.versionCode": "101"], "the last one wins")
        #expect(throws: ValidationError.self) {
            try RenderSettings.parse(["osam.versionCode"], usesHomeSettings: false)
        }
        #expect(throws: ValidationError.self) { try RenderSettings.parse(["no.such.key=1"], usesHomeSettings: false) }
        #expect(throws: SCLMError.self) { try RenderSettings.parse(["osam.versionCode=abc"], usesHomeSettings: false) }
    }
}
