import Foundation
import SCLMCore
import SCLMTestSupport
import Testing

/// `ConfigKey.all` is kept by hand, and the secret variables taken out of external modules' environment
/// derive from it: a key declared but left out would be unknown to `sclm config` and, when secret, leak.
@Suite(.tags(.small)) struct ConfigKeyCatalogTests {
    @Test func everyDeclaredKeyIsInTheCatalog() throws {
        let declared = try SourceDeclarations.firstArguments(of: "ConfigKey", under: "Sources")
        #expect(declared.count >= 30, "the scan finds the declarations")
        let names = ConfigKey.all.map(\.name)
        #expect(Set(declared).subtracting(names).sorted() == [], "declared but missing from ConfigKey.all")
        #expect(declared.count == names.count && Set(names).count == names.count, "each key listed once")
    }

    @Test func everySecretKeysVariableIsRemovedFromModuleEnvironments() {
        for key in ConfigKey.all where key.isSecret {
            guard let variable = key.environmentVariable else { continue }
            #expect(ConfigKey.isSecretEnvironmentEntry("\(variable)=value"), "\(key.name)")
        }
        #expect(!ConfigKey.isSecretEnvironmentEntry("SCLM_API_URL=https://api.example"))
    }
}
