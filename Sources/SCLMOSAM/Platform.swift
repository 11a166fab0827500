import Foundation

/// The platform part of OSAM's backend paths (`ANDROID` or `IOS`).
package enum Platform: String, Sendable, Codable, CaseIterable, CustomStringConvertible {
    case android = "ANDROID"
    case ios = "IOS"

    /// The platform named by `text`, case-insensitively, or `nil`.
    package init?(name text: String) {
        guard let match = Platform.allCases.first(where: { $0.rawValue.caseInsensitiveCompare(text) == .orderedSame })
        else {
            return nil
        }
        self = match
    }

    package var description: String { rawValue }
}
