import SCLMStore

/// A presentation as `GET /v1/presentations/{id}` returns it (`SCLMPresentation`). The package is under
/// the wire key `sourcesFolder`; slides and media files are `{id, revision}` stubs.
package struct PresentationDTO: Sendable, Equatable, Decodable {
    package var id: Int64
    package var name: String
    package var shortDescription: String?
    package var longDescription: String?
    package var thumbImgId: String?
    package var imgId: String?
    package var order: Int64
    package var revision: Int64
    package var created: String?
    package var updated: String?
    package var clientId: Int64?
    package var debugModeEnabled: Bool
    package var skip: Bool
    package var mapEnabled: Bool
    package var mapType: Int64
    package var needConfirmation: Bool
    package var previewMode: Int64
    package var map: String?
    package var visibility: Bool
    package var sourcesFolder: ContentPackageDTO?
    package var slides: [SlideStubDTO]
    package var mediaFiles: [MediaFileStubDTO]

    private enum CodingKeys: String, CodingKey {
        case id, name, shortDescription, longDescription, thumbImgId, imgId, order, revision, created, updated, clientId
        case debugModeEnabled, skip, mapEnabled, mapType, needConfirmation, previewMode, map, visibility, sourcesFolder
        case slides, mediaFiles
    }

    package init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        id = try container.decode(Int64.self, forKey: .id)
        revision = try container.decode(Int64.self, forKey: .revision)
        name = container.lenient(.name, default: "")
        shortDescription = container.lenient(.shortDescription)
        longDescription = container.lenient(.longDescription)
        thumbImgId = container.lenient(.thumbImgId)
        imgId = container.lenient(.imgId)
        order = container.lenient(.order, default: -1)
        created = container.lenient(.created)
        updated = container.lenient(.updated)
        clientId = container.lenient(.clientId)
        debugModeEnabled = container.lenient(.debugModeEnabled, default: false)
        skip = container.lenient(.skip, default: false)
        mapEnabled = container.lenient(.mapEnabled, default: true)
        mapType = container.lenient(.mapType, default: 0)
        needConfirmation = container.lenient(.needConfirmation, default: false)
        previewMode = container.lenient(.previewMode, default: 0)
        map = container.lenient(.map)
        visibility = container.lenient(.visibility, default: true)
        sourcesFolder = container.lenient(.sourcesFolder)
        slides = container.lenientArray(.slides)
        mediaFiles = container.lenientArray(.mediaFiles)
    }

    /// Why this record cannot be stored as the presentation that client `listedClientId`'s listing names
    /// `listedId`; `nil` when it can (a record without a `clientId` belongs to the listing's client).
    ///
    /// A record that answers with another id would be stored under that id (the listed one then looks new
    /// on every sync, the other one removed); one naming an unknown client breaks the catalog's foreign key
    /// and, with it, the whole metadata transaction; one naming another synced client would move the
    /// presentation to a client whose listing does not carry it (removed there by the next sync, moved back
    /// by the one after).
    package func inconsistency(listedId: Int64, listedClientId: Int64) -> String? {
        if id != listedId { return "the server answered with the record of presentation \(id) instead" }
        if let clientId, clientId != listedClientId {
            return "its record names client \(clientId), but it is listed by client \(listedClientId) in /v1/clients"
        }
        return nil
    }

    /// The stored form; the client and `lockout` come from the client's listing and `rawData` is the JSON as received.
    package func record(clientId listingClientId: Int64, lockout: Bool, rawData: String?) -> PresentationRecord {
        PresentationRecord(
            presentationId: id, clientId: listingClientId, name: name, shortDescription: shortDescription,
            longDescription: longDescription, imgId: imgId, thumbImgId: thumbImgId, order: order, revision: revision,
            created: created, updatedDate: updated, debugModeEnabled: debugModeEnabled, skip: skip, lockout: lockout,
            mapEnabled: mapEnabled, mapType: mapType, map: map, needConfirmation: needConfirmation,
            previewMode: previewMode, visibility: visibility, rawData: rawData)
    }
}

/// An entry of a presentation's slide or media-file list: an id and the revision to compare.
package protocol ListedRevision: Sendable {
    /// The slide's or media file's id.
    var id: Int64 { get }
    /// Its revision on the server.
    var revision: Int64 { get }
}

/// A slide as a presentation lists it.
package struct SlideStubDTO: ListedRevision, Equatable, Decodable {
    package var id: Int64
    package var revision: Int64

    private enum CodingKeys: String, CodingKey { case id, revision }

    package init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        id = try container.decode(Int64.self, forKey: .id)
        revision = container.lenient(.revision, default: -1)
    }
}

/// A media file as a presentation lists it.
package struct MediaFileStubDTO: ListedRevision, Equatable, Decodable {
    package var id: Int64
    package var revision: Int64
    package var fileSize: Int64

    private enum CodingKeys: String, CodingKey { case id, revision, fileSize }

    package init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        id = try container.decode(Int64.self, forKey: .id)
        revision = container.lenient(.revision, default: -1)
        fileSize = container.lenient(.fileSize, default: 0)
    }
}
