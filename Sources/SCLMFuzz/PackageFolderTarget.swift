import Foundation
import SCLMArchive
import SCLMCore

/// The package validator on an unpacked folder made from the input: pieces separated by NUL bytes, each a
/// relative path (its first line, reduced to safe characters) and the file's contents (the rest).
enum PackageFolderTarget {
    /// The most files made from one input.
    private static let maximumFiles = 8

    static func fuzz(_ bytes: [UInt8]) {
        guard let scratch = FuzzScratch.path else { return }
        let root = scratch + "/package"
        try? FileSystem.removeTree(root)
        guard (try? FileSystem.makeDirectory(root)) != nil else { return }
        for piece in FuzzInput(bytes).pieces(separatedBy: 0).prefix(maximumFiles) {
            let newline = piece.firstIndex(of: UInt8(ascii: "\n")) ?? piece.endIndex
            let name = safePath(piece[..<newline])
            let path = root + "/" + name
            try? FileSystem.makeDirectory((path as NSString).deletingLastPathComponent)
            try? Data(piece[min(newline + 1, piece.endIndex)...]).write(to: URL(fileURLWithPath: path))
        }
        _ = try? PackageValidator().validate(root, cancellation: CancellationFlag())
    }

    /// `name` as a path below the package root: letters, digits, `.`, `_`, `-` and `/` only, no `.` or `..`
    /// component, at most four levels; `index.html` when nothing is left.
    private static func safePath(_ name: ArraySlice<UInt8>) -> String {
        let kept = name.filter { byte in
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
                UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "-"),
                UInt8(ascii: "/"):
                true
            default: false
            }
        }
        let components = String(decoding: kept, as: UTF8.self).split(separator: "/")
            .filter { $0 != "." && $0 != ".." }.prefix(4)
        return components.isEmpty ? "index.html" : components.joined(separator: "/")
    }
}
