import Foundation

/// The values declared in the package's own sources as `static let name = Type("first argument", …)`, for
/// tests that prove a hand-kept catalog (`Rule.all`, `SettingsCatalog.all`) lists every declaration.
package enum SourceDeclarations {
    /// The first string argument of every `static let … = <type>(` declaration in the Swift files under
    /// `folder` (relative to the package root), in file order.
    ///
    /// - Parameters:
    ///   - type: the declared type's name, e.g. `Rule`.
    ///   - folder: a folder of the package, e.g. `Sources/SCLMArchive`.
    /// - Returns: the declared first arguments, e.g. `["ARCHIVE-NOT-ZIP", …]`.
    /// - Throws: when a file cannot be read.
    package static func firstArguments(of type: String, under folder: String) throws -> [String] {
        let pattern = try NSRegularExpression(pattern: #"static let \w+ = \#(type)\(\s*"([^"]+)""#)
        return try swiftFiles(under: folder).flatMap { file in
            let text = try String(contentsOfFile: file, encoding: .utf8)
            let range = NSRange(text.startIndex..., in: text)
            return pattern.matches(in: text, range: range).compactMap { match in
                Range(match.range(at: 1), in: text).map { String(text[$0]) }
            }
        }
    }

    /// The Swift files under `folder` (relative to the package root), sorted by path.
    private static func swiftFiles(under folder: String) throws -> [String] {
        let root = ProcessRunner.packageRoot + "/" + folder
        let names = try FileManager.default.subpathsOfDirectory(atPath: root)
        return names.filter { $0.hasSuffix(".swift") }.sorted().map { root + "/" + $0 }
    }
}
