import Foundation
import SCLMCore

/// `config.json` loading (`Configuration.parse`), then every stored setting read back in its checked form
/// under each form a value can take (the keys themselves live with the features, above this floor), and the
/// passwords of URLs found in each value (`URLPasswords`).
enum ConfigurationTarget {
    /// One value form of each kind, and a secret one (its refusal leaves the value out).
    static let forms: [(format: ConfigValueFormat, secret: Bool)] = [
        (.text, false), (.choice(["install", "refuse"]), false),
        (.choice(["IOS", "ANDROID"], ignoringCase: true), false),
        (.wholeNumber(atLeast: 1, atMost: 64), false), (.wholeNumber(atLeast: 0), false), (.decimal(-90...90), false),
        (.httpURL, false), (.proxyURL, false), (.httpURL, true),
    ]

    static func fuzz(_ bytes: [UInt8]) {
        guard let configuration = try? Configuration.parse(Data(bytes), path: "config.json", environment: [:])
        else { return }
        for value in configuration.stored.values {
            _ = (URLPasswords.redacting(value), URLPasswords.removing(from: value), URLPasswords.userInfo(in: value))
        }
        for name in configuration.stored.keys {
            for form in forms {
                let text = ConfigKey<String>(name, help: "A fuzzed setting.", secret: form.secret, format: form.format)
                let number = ConfigKey<Int>(
                    name, help: "A fuzzed setting.", default: nil, environment: nil, format: form.format,
                    decode: { Int($0) })
                _ = try? configuration.value(text)
                _ = try? configuration.value(number)
            }
        }
    }
}
