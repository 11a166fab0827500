import Foundation

/// The platform part of OSAM's backend paths (`ANDROID` or `IOS`).
public enum Platform: String, Sendable, Codable, CaseIterable, CustomStringConvertible {
    case android = "ANDROID"
    case ios = "IOS"

    /// The platform named by `text`, case-insensitively, or `nil`.
    public init?(name text: String) {
        guard let match = Platform.allCases.first(where: { $0.rawValue.caseInsensitiveCompare(text) == .orderedSame }) else {
            return nil
        }
        self = match
    }

    public var description: String { rawValue }
}
