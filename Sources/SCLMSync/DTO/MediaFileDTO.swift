import SCLMStore

/// A media file as `GET /v1/mediafiles/{id}` returns it (`SCLMMediaFile`), including a short-lived `sas`
/// download URL that is never stored.
public struct MediaFileDTO: Sendable, Equatable, Decodable {
    public var id: Int64
    public var revision: Int64
    public var fileName: String
    public var title: String?
    public var blobId: String?
    public var fileSize: Int64
    public var mimeType: String?
    public var created: String?
    public var updated: String?
    public var sas: String?
    public var isAvailableForSharing: Bool

    private enum CodingKeys: String, CodingKey {
        case id, revision, fileName, title, blobId, fileSize, mimeType, created, updated, sas, isAvailableForSharing
    }

    public init(from decoder: any Decoder) throws {
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
    public func record(presentationId: Int64, position: Int64) -> MediaFileRecord {
        MediaFileRecord(
            mediaFileId: id, presentationId: presentationId, position: position, revision: revision, fileName: fileName,
            title: title, blobId: blobId, mimeType: mimeType, fileSize: fileSize,
            isAvailableForSharing: isAvailableForSharing, created: created, updatedDate: updated)
    }
}
