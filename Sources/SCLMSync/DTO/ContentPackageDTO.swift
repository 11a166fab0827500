import SCLMStore

/// A content package: a presentation's `sourcesFolder`, or `GET /v1/contentpackages/{presentationId}`,
/// which adds the short-lived `sas` download URL (never stored).
package struct ContentPackageDTO: Sendable, Equatable, Decodable {
    package var id: Int64
    package var revision: Int64
    package var sas: String?
    package var blobId: String?
    package var fileSize: Int64
    package var mimeType: String?
    package var created: String?
    package var updated: String?

    private enum CodingKeys: String, CodingKey { case id, revision, sas, blobId, fileSize, mimeType, created, updated }

    package init(from decoder: any Decoder) throws {
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
    package func record(presentationId: Int64) -> ContentPackageRecord {
        ContentPackageRecord(
            presentationId: presentationId, contentPackageId: id, revision: revision, blobId: blobId,
            fileSize: fileSize,
            mimeType: mimeType, created: created, updatedDate: updated)
    }
}
