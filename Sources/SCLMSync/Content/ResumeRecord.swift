import Foundation
import SCLMCore

/// What a later run needs to continue a partial download safely, kept as JSON beside the `.part` file.
///
/// A part is only resumed when the server still describes the same blob (`blobId`, `fileSize`) and its
/// bytes are fetched with `If-Range: <entityTag>`, so a changed resource restarts from byte 0 instead of
/// being spliced onto old bytes. Without a record (the process died before the first byte arrived) the
/// download starts over.
package struct ResumeRecord: Sendable, Equatable, Codable {
    /// The blob the part holds bytes of.
    package var blobId: String?
    /// The size the server announced for it.
    package var fileSize: Int64
    /// The strong `ETag` of the response the bytes came from.
    package var entityTag: String

    /// Creates a record.
    package init(blobId: String?, fileSize: Int64, entityTag: String) {
        self.blobId = blobId
        self.fileSize = fileSize
        self.entityTag = entityTag
    }

    /// The record beside `partPath`, or `nil` when there is none or it cannot be read.
    package static func load(forPart partPath: String) -> ResumeRecord? {
        guard let data = FileManager.default.contents(atPath: PackageCache.resumeRecordPath(forPart: partPath)) else {
            return nil
        }
        return decode(data)
    }

    /// The record `data` holds, or `nil` when it is not one (a pure function of bytes, for the fuzz target).
    package static func decode(_ data: Data) -> ResumeRecord? {
        try? JSONDecoder().decode(ResumeRecord.self, from: data)
    }

    /// Writes the record beside `partPath` (atomically, without waiting for the disk: losing it to a power
    /// cut only means the download starts over).
    ///
    /// - Throws: `SCLMError` (`.storage`).
    package func save(forPart partPath: String) throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        try FileSystem.writeAtomically(
            try encoder.encode(self), to: PackageCache.resumeRecordPath(forPart: partPath), durable: false)
    }

    /// Whether a part described by this record may continue a download of `blobId` with `fileSize` bytes.
    package func matches(blobId: String?, fileSize: Int64) -> Bool {
        self.blobId == blobId && self.fileSize == fileSize
    }
}
