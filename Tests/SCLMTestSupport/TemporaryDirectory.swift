import Foundation
import SCLMCore

/// A fresh folder under the system temp directory, removed when the value is released.
package final class TemporaryDirectory: Sendable {
    /// The absolute path of the folder.
    package let path: String

    /// Creates a new empty folder whose name starts with `prefix`.
    package init(prefix: String = "sclm-test") {
        let template = NSTemporaryDirectory() + "/\(prefix)-XXXXXX"
        var bytes = Array(template.utf8CString)
        let created = bytes.withUnsafeMutableBufferPointer { $0.baseAddress.flatMap { mkdtemp($0) } }
        precondition(created != nil, "mkdtemp failed")
        path = FileSystem.absolutePath(
            String(decoding: bytes.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self))
    }

    deinit {
        try? FileManager.default.removeItem(atPath: path)
    }

    /// `name` inside the folder.
    package func appending(_ name: String) -> String { path + "/" + name }

    /// Writes `text` to `name` (creating parent folders) and returns its path.
    @discardableResult
    package func write(_ text: String, to name: String) throws -> String {
        let target = appending(name)
        try FileSystem.makeDirectory((target as NSString).deletingLastPathComponent, mode: 0o755)
        try Data(text.utf8).write(to: URL(fileURLWithPath: target))
        return target
    }
}
