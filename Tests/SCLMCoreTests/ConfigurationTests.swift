import Foundation
import SCLMCore
import SCLMTestSupport
import Testing

@Suite struct ConfigurationTests {
    @Test func environmentOverridesFileWhichOverridesDefault() throws {
        var configuration = Configuration(environment: ["SCLM_API_URL": "http://127.0.0.1:9"])
        try configuration.set(.apiURL, to: "https://file.example")
        try configuration.set(.authURL, to: "https://auth.file.example")
        #expect(configuration.resolved(.apiURL).value == "http://127.0.0.1:9")
        #expect(configuration.resolved(.apiURL).source == .environment)
        #expect(configuration.resolved(.authURL).source == .file)
        #expect(configuration.resolved(.syncJobs) == ("4", .default))
        #expect(configuration.resolved(.clientId).source == .unset)
    }

    @Test func savesAtomicallyWithMode0600AndLoadsBack() throws {
        let folder = TemporaryDirectory()
        let path = folder.appending("config.json")
        var configuration = Configuration()
        try configuration.set(.clientSecret, to: "s3cret")
        try configuration.save(to: path)
        #expect(FileSystem.mode(of: path) == 0o600)
        let loaded = try Configuration.load(from: path, environment: [:])
        #expect(loaded.value(.clientSecret) == "s3cret")
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path) == ["config.json"])
    }

    @Test func masksSecretsButNotPlainValues() {
        #expect(Configuration.display("s3cret", for: .clientSecret) == "********")
        #expect(Configuration.display("https://x", for: .apiURL) == "https://x")
        #expect(Configuration.display(nil, for: .clientSecret) == "(unset)")
    }

    @Test func refusesToStoreThePassword() {
        var configuration = Configuration()
        let error = #expect(throws: SCLMError.self) { try configuration.set(.password, to: "hunter2") }
        #expect(error?.category == .usage)
        #expect(error?.description.contains("hunter2") == false)
    }

    @Test func aChoiceKeyTakesOnlyItsValues() throws {
        var configuration = Configuration()
        #expect(try configuration.choice(.syncContentPolicy) == "install")
        try configuration.set(.syncContentPolicy, to: "refuse")
        #expect(try configuration.choice(.syncContentPolicy) == "refuse")
        let error = #expect(throws: SCLMError.self) { try configuration.set(.syncContentPolicy, to: "REFUSE") }
        #expect(error?.category == .usage)
        #expect(error?.description.contains("sync.contentPolicy must be install or refuse, got 'REFUSE'") == true)
        let edited = Configuration(stored: ["sync.contentPolicy": "skip"])
        #expect(throws: SCLMError.self) { try edited.choice(.syncContentPolicy) }
        #expect(edited.value(.syncContentPolicy) == "skip", "value() does not check; choice() does")
    }

    @Test func reportsAMalformedFileAsAUsageError() throws {
        let folder = TemporaryDirectory()
        let path = try folder.write("[1,2", to: "config.json")
        let error = #expect(throws: SCLMError.self) { try Configuration.load(from: path, environment: [:]) }
        #expect(error?.category == .usage)
        #expect(error?.description.contains(path) == true)
    }

    @Test func refusesAValueThatIsNotAString() throws {
        let folder = TemporaryDirectory()
        let path = try folder.write(#"{"api.url":{"x":1}}"#, to: "config.json")
        let error = #expect(throws: SCLMError.self) { try Configuration.load(from: path, environment: [:]) }
        #expect(error?.category == .usage)
        #expect(error?.description.contains("api.url") == true)
    }
}

/// The format of a key is the one rule `config set` and the readers apply.
@Suite(.tags(.small)) struct ConfigValueFormatTests {
    @Test func typedKeysNormalizeWhatTheyAcceptAndRefuseTheRest() {
        #expect(ConfigValueFormat.wholeNumber(atLeast: 0).normalized(" 7") == "7")
        #expect(ConfigValueFormat.wholeNumber(atLeast: 1).normalized("0") == nil)
        #expect(ConfigValueFormat.wholeNumber(atLeast: 0).normalized("abc") == nil)
        #expect(ConfigValueFormat.httpURL.normalized("https://api.example") == "https://api.example")
        #expect(ConfigValueFormat.httpURL.normalized("not-a-url") == nil)
        #expect(ConfigValueFormat.httpURL.normalized("ftp://files.example") == nil)
        #expect(ConfigValueFormat.choice(["IOS", "ANDROID"], ignoringCase: true).normalized("android") == "ANDROID")
        #expect(ConfigValueFormat.choice(["install", "refuse"]).normalized("Refuse") == nil)
    }

    @Test func aBadValueFromTheEnvironmentNamesTheVariableToFix() {
        let configuration = Configuration(environment: ["SCLM_BRIDGE_FLUSH_INTERVAL": "soon"])
        let error = #expect(throws: SCLMError.self) { try configuration.wholeNumber(.bridgeFlushInterval) }
        #expect(error?.description.contains("fix SCLM_BRIDGE_FLUSH_INTERVAL in the environment") == true)
    }

    @Test func aDeeplyNestedConfigFileIsAUsageErrorNotACrash() {
        let deep = Data(("{\"a\":" + String(repeating: "[", count: 100_000)).utf8)
        #expect {
            try Configuration.parse(deep, path: "config.json", environment: [:])
        } throws: { error in
            (error as? SCLMError)?.category == .usage
        }
    }
}
