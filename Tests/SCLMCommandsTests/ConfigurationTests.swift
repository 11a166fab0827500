import Foundation
import SCLMAnalytics
import SCLMArchive
import SCLMAuth
import SCLMCore
import SCLMHTTP
import SCLMSync
import SCLMTestSupport
import Testing

@Suite struct ConfigurationTests {
    @Test func environmentOverridesFileWhichOverridesDefault() throws {
        var configuration = Configuration(environment: ["SCLM_API_URL": "http://127.0.0.1:9"])
        try configuration.set(ConfigKey.apiURL.any, to: "https://file.example")
        try configuration.set(ConfigKey.authURL.any, to: "https://auth.file.example")
        #expect(try configuration.value(.apiURL) == URL(string: "http://127.0.0.1:9"))
        #expect(configuration.resolved(ConfigKey.apiURL.any).source == .environment)
        #expect(configuration.resolved(ConfigKey.authURL.any).source == .file)
        #expect(configuration.resolved(ConfigKey.syncJobs.any) == ("4", .default))
        #expect(try configuration.value(.syncJobs) == 4)
        #expect(configuration.resolved(ConfigKey.clientId.any).source == .unset)
        #expect(try configuration.value(.clientId) == nil)
    }

    @Test func savesAtomicallyWithMode0600AndLoadsBack() throws {
        let folder = TemporaryDirectory()
        let path = folder.appending("config.json")
        var configuration = Configuration()
        try configuration.set(ConfigKey.clientSecret.any, to: "s3cret")
        try configuration.save(to: path)
        #expect(FileSystem.mode(of: path) == 0o600)
        let loaded = try Configuration.load(from: path, environment: [:])
        #expect(try loaded.value(.clientSecret) == "s3cret")
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path) == ["config.json"])
    }

    @Test func masksSecretsButNotPlainValues() {
        #expect(Configuration.display("s3cret", for: ConfigKey.clientSecret.any) == "********")
        #expect(Configuration.display("https://x", for: ConfigKey.apiURL.any) == "https://x")
        #expect(Configuration.display(nil, for: ConfigKey.clientSecret.any) == "(unset)")
    }

    @Test func refusesToStoreThePassword() {
        var configuration = Configuration()
        let error = #expect(throws: SCLMError.self) { try configuration.set(ConfigKey.password.any, to: "hunter2") }
        #expect(error?.category == .usage)
        #expect(error?.description.contains("hunter2") == false)
    }

    @Test func aChoiceKeyTakesOnlyItsValues() throws {
        var configuration = Configuration()
        #expect(try configuration.value(.syncContentPolicy) == .install)
        try configuration.set(ConfigKey.syncContentPolicy.any, to: "refuse")
        #expect(try configuration.value(.syncContentPolicy) == .refuse)
        let error = #expect(throws: SCLMError.self) {
            try configuration.set(ConfigKey.syncContentPolicy.any, to: "REFUSE")
        }
        #expect(error?.category == .usage)
        #expect(error?.description.contains("sync.contentPolicy must be install or refuse, got 'REFUSE'") == true)
        let edited = Configuration(stored: ["sync.contentPolicy": "skip"])
        #expect(throws: SCLMError.self) { try edited.value(.syncContentPolicy) }
        #expect(edited.resolved(ConfigKey.syncContentPolicy.any).value == "skip", "shown as written, read checked")
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
        let error = #expect(throws: SCLMError.self) { try configuration.value(.bridgeFlushInterval) }
        #expect(error?.description.contains("fix SCLM_BRIDGE_FLUSH_INTERVAL in the environment") == true)
    }

    @Test func secretKeysAreReadFromTheCredentialsDirectoryAfterTheEnvironment() throws {
        let folder = TemporaryDirectory()
        try Data("s3cret\n".utf8).write(to: URL(fileURLWithPath: folder.appending("auth.clientSecret")))
        try Data("sclm-fleet\n".utf8).write(to: URL(fileURLWithPath: folder.appending("auth.clientId")))
        try Data("http://bad\n".utf8).write(to: URL(fileURLWithPath: folder.appending("iot.secret")))
        var configuration = Configuration(environment: ["CREDENTIALS_DIRECTORY": folder.path])
        try configuration.set(ConfigKey.clientSecret.any, to: "from-the-file")
        #expect(configuration.resolved(ConfigKey.clientSecret.any) == ("s3cret", .credential))
        #expect(
            configuration.resolved(ConfigKey.clientId.any).source == .unset, "only secret keys come from credentials")
        #expect(configuration.resolved(ConfigKey.iotKey.any).source == .unset)
        let overridden = Configuration(
            environment: ["CREDENTIALS_DIRECTORY": folder.path, "SCLM_CLIENT_SECRET": "from-the-environment"])
        #expect(overridden.resolved(ConfigKey.clientSecret.any) == ("from-the-environment", .environment))
        let relative = Configuration(environment: ["CREDENTIALS_DIRECTORY": "relative/folder"])
        #expect(relative.resolved(ConfigKey.clientSecret.any).source == .unset)
    }

    @Test func rangesDecimalsAndProxyURLsAreCheckedByTheirFormat() {
        #expect(ConfigValueFormat.wholeNumber(atLeast: 1, atMost: 64).normalized("64") == "64")
        #expect(ConfigValueFormat.wholeNumber(atLeast: 1, atMost: 64).normalized("65") == nil)
        #expect(ConfigValueFormat.wholeNumber(atLeast: 1, atMost: 64).acceptedForm == "a whole number from 1 to 64")
        #expect(ConfigValueFormat.decimal(-90...90).normalized(" 48.85 ") == "48.85")
        #expect(ConfigValueFormat.decimal(-90...90).normalized("999") == nil)
        #expect(ConfigValueFormat.decimal(-90...90).normalized("nan") == nil)
        #expect(ConfigValueFormat.decimal(-180...180).acceptedForm == "a number from -180 to 180")
        #expect(ConfigValueFormat.proxyURL.normalized("http://proxy.corp:3128") == "http://proxy.corp:3128")
        #expect(ConfigValueFormat.proxyURL.normalized("proxy.corp:3128") == "proxy.corp:3128")
        #expect(ConfigValueFormat.proxyURL.normalized("http://user:s3cret@proxy:3128") == nil)
        #expect(ConfigValueFormat.proxyURL.normalized("socks5h://user@proxy:1080") == nil)
        #expect(ConfigValueFormat.proxyURL.normalized("user:pw@proxy:3128") == nil)
    }

    @Test func passwordsInsideURLsAreMaskedWhereverTheyAreShown() {
        #expect(URLPasswords.redacting("http://user:s3cret@proxy:3128") == "http://user:********@proxy:3128")
        #expect(URLPasswords.redacting("https://api.example/v1?a=b@c") == "https://api.example/v1?a=b@c")
        #expect(URLPasswords.redacting("user@host") == "user@host")
        #expect(URLPasswords.redacting("user:pw@host:1") == "user:********@host:1")
        #expect(
            Configuration.display("https://a:b@api.example", for: ConfigKey.apiURL.any)
                == "https://a:********@api.example")
        let configuration = Configuration(stored: ["http.proxy": "http://u:p4ss@proxy:1"])
        let error = #expect(throws: SCLMError.self) { try configuration.value(.proxy) }
        #expect(error?.description.contains("http.proxyCredentials") == true)
        #expect(error?.description.contains("p4ss") == false)
    }

    /// The one-pass scanner finds what the pattern `(^|scheme://)user(:password)?@` finds, on random text
    /// made of the characters that matter, and a 200,000-character value takes one pass.
    @Test func passwordsAreFoundAsThePatternFindsThem() {
        let pattern = /(?<prefix>(?:^|[a-zA-Z][a-zA-Z0-9+.-]*:\/\/))(?<user>[^\/@:\s]*)(?<secret>:[^\/@\s]*)?@/
        let alphabet: [Character] = ["a", "h", "1", "+", ".", ":", "/", "@", " ", "-", "é", "\u{2028}"]
        var generator = SeededRandom(seed: 33)
        for _ in 0..<5_000 {
            let text = String(
                (0..<Int.random(in: 0...24, using: &generator)).map { _ in
                    alphabet.randomElement(using: &generator)!
                })
            let expected = text.replacing(pattern) { match in
                String(match.output.prefix) + String(match.output.user)
                    + (match.output.secret == nil ? "" : ":********")
                    + "@"
            }
            #expect(URLPasswords.redacting(text) == expected, "\(text.debugDescription)")
            let user = text.firstMatch(of: pattern).map { String($0.output.user) + String($0.output.secret ?? "") }
            #expect(URLPasswords.userInfo(in: text) == user, "\(text.debugDescription)")
        }
        let long = "https://" + String(repeating: "a", count: 200_000) + ":pw@host"
        #expect(URLPasswords.redacting(long).hasSuffix("a:********@host"))
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
