import SCLMStore

/// A content package: a presentation's `sourcesFolder`, or `GET /v1/contentpackages/{presentationId}`,
/// which adds the short-lived `sas` download URL (never stored).
public struct ContentPackageDTO: Sendable, Equatable, Decodable {
    public var id: Int64
    public var revision: Int64
    public var sas: String?
    public var blobId: String?
    public var fileSize: Int64
    public var mimeType: String?
    public var created: String?
    public var updated: String?

    private enum CodingKeys: String, CodingKey { case id, revision, sas, blobId, fileSize, mimeType, created, updated }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        id = container.lenient(.id, default: 0)
        revision = container.lenient(.revision, default: -1)
        sas = container.lenient(.sas)
        blobId = container.lenient(.blobId)
        fileSize = container.lenient(.fileSize, default: 0)
        mimeType = container.lenient(.mimeType)
        created = container.lenient(.created)
        updated = container.lenient(.updated)
    }

    /// The stored form under `presentationId`.
    public func record(presentationId: Int64) -> ContentPackageRecord {
        ContentPackageRecord(
            presentationId: presentationId, contentPackageId: id, revision: revision, blobId: blobId,
            fileSize: fileSize,
            mimeType: mimeType, created: created, updatedDate: updated)
    }
}
