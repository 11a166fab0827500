import SCLMStore

/// A media file as `GET /v1/mediafiles/{id}` returns it (`SCLMMediaFile`), including a short-lived `sas`
/// download URL that is never stored.
package struct MediaFileDTO: Sendable, Equatable, Decodable {
    package var id: Int64
    package var revision: Int64
    package var fileName: String
    package var title: String?
    package var blobId: String?
    package var fileSize: Int64
    package var mimeType: String?
    package var created: String?
    package var updated: String?
    package var sas: String?
    package var isAvailableForSharing: Bool

    private enum CodingKeys: String, CodingKey {
        case id, revision, fileName, title, blobId, fileSize, mimeType, created, updated, sas, isAvailableForSharing
    }

    package init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        id = try container.decode(Int64.self, forKey: .id)
        revision = container.lenient(.revision, default: -1)
        fileName = container.lenient(.fileName, default: "")
        title = container.lenient(.title)
        blobId = container.lenient(.blobId)
        fileSize = container.lenient(.fileSize, default: 0)
        mimeType = container.lenient(.mimeType)
        created = container.lenient(.created)
        updated = container.lenient(.updated)
        sas = container.lenient(.sas)
        isAvailableForSharing = container.lenient(.isAvailableForSharing, default: true)
    }

    /// The stored form at `position` in `presentationId`'s media list.
    package func record(presentationId: Int64, position: Int64) -> MediaFileRecord {
        MediaFileRecord(
            mediaFileId: id, presentationId: presentationId, position: position, revision: revision, fileName: fileName,
            title: title, blobId: blobId, mimeType: mimeType, fileSize: fileSize,
            isAvailableForSharing: isAvailableForSharing, created: created, updatedDate: updated)
    }
}
