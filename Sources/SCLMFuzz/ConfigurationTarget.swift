import Foundation
import SCLMCore

/// `config.json` loading (`Configuration.parse`), then every key read back in its checked form.
enum ConfigurationTarget {
    static func fuzz(_ bytes: [UInt8]) {
        guard let configuration = try? Configuration.parse(Data(bytes), path: "config.json", environment: [:])
        else { return }
        for key in ConfigKey.all {
            _ = try? configuration.checked(key)
            _ = try? configuration.wholeNumber(key)
        }
    }
}
