import Foundation

/// `application/x-www-form-urlencoded` bodies (the token endpoint's format).
enum FormEncoding {
    private static let unreserved = Set("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~".utf8)

    /// `name=value` pairs joined with `&`, each percent-encoded (space as `+`).
    static func encode(_ fields: [(String, String)]) -> Data {
        Data(fields.map { "\(escape($0.0))=\(escape($0.1))" }.joined(separator: "&").utf8)
    }

    static func escape(_ text: String) -> String {
        var result = ""
        for byte in text.utf8 {
            if unreserved.contains(byte) {
                result.append(Character(Unicode.Scalar(byte)))
            } else if byte == UInt8(ascii: " ") {
                result.append("+")
            } else {
                result.append(String(format: "%%%02X", byte))
            }
        }
        return result
    }
}
