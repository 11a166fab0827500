import Foundation
import SCLMCore

/// `application/x-www-form-urlencoded` bodies (the token endpoint's format).
enum FormEncoding {
    /// `name=value` pairs joined with `&`, each percent-encoded (space as `+`).
    static func encode(_ fields: [(String, String)]) -> Data {
        Data(
            fields.map {
                "\(PercentEncoding.escape($0.0, spaceAsPlus: true))=\(PercentEncoding.escape($0.1, spaceAsPlus: true))"
            }
            .joined(separator: "&").utf8)
    }
}
