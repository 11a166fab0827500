import Foundation
import SCLMCommands
import SCLMCore
import SCLMTestSupport
import Testing

/// Each feature declares its settings beside the code that reads them and `SettingsCatalog` lists them all
/// (by hand, in display order); the secret variables taken out of external modules' environment derive from
/// that list. A key declared but left out would be unknown to `sclm config` and, when secret, leak.
@Suite(.tags(.small)) struct SettingsCatalogTests {
    @Test func everyDeclaredKeyIsInTheCatalog() throws {
        let declared = try SourceDeclarations.firstArguments(of: "ConfigKey", under: "Sources")
        #expect(declared.count >= 30, "the scan finds the declarations")
        let names = SettingsCatalog.all.map(\.name)
        #expect(Set(declared).subtracting(names).sorted() == [], "declared but missing from SettingsCatalog.all")
        #expect(declared.count == names.count && Set(names).count == names.count, "each key listed once")
    }

    @Test func noKeyIsDeclaredInTheCore() throws {
        #expect(try SourceDeclarations.firstArguments(of: "ConfigKey", under: "Sources/SCLMCore") == [])
    }

    @Test func everySecretKeysVariableIsAmongTheWithheldOnes() {
        let secrets = SettingsCatalog.all.filter(\.isSecret)
        #expect(secrets.count >= 5, "client secret, password, proxy credentials, OSAM password, iot secret")
        #expect(SettingsCatalog.secretEnvironmentVariables == Set(secrets.compactMap(\.environmentVariable)))
        #expect(!SettingsCatalog.secretEnvironmentVariables.contains("SCLM_API_URL"))
    }
}
