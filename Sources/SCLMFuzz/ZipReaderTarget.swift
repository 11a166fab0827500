import Foundation
import SCLMArchive
import SCLMCore

/// The zip reader: the input written to a file and validated as `sclm validate` reads a zip (`ZipDirectory`'s
/// central directory, then every entry streamed through libarchive by `ZipScanner`).
enum ZipReaderTarget {
    static func fuzz(_ bytes: [UInt8]) {
        guard let folder = FuzzScratch.path else { return }
        let path = folder + "/input.zip"
        guard (try? Data(bytes).write(to: URL(fileURLWithPath: path))) != nil else { return }
        _ = try? PackageValidator().validate(path, cancellation: CancellationFlag())
    }
}
