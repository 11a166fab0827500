import SCLMStore

/// A client as `GET /v1/clients` lists it (StoryContent's `SCLMClient`), with its
/// presentations as stubs. Users, groups and tables are not used by sclm and not decoded.
package struct ClientDTO: Sendable, Equatable, Decodable {
    package var id: Int64
    package var name: String
    package var lockoutEnabled: Bool
    package var shortDescription: String?
    package var longDescription: String?
    package var thumbImgId: String?
    package var imgId: String?
    package var url: String?
    package var email: String?
    package var created: String?
    package var updated: String?
    package var presentations: [PresentationStubDTO]

    private enum CodingKeys: String, CodingKey {
        case id, name, lockoutEnabled, shortDescription, longDescription, thumbImgId, imgId, url, email, created,
            updated
        case presentations
    }

    package init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        id = try container.decode(Int64.self, forKey: .id)
        name = container.lenient(.name, default: "")
        lockoutEnabled = container.lenient(.lockoutEnabled, default: false)
        shortDescription = container.lenient(.shortDescription)
        longDescription = container.lenient(.longDescription)
        thumbImgId = container.lenient(.thumbImgId)
        imgId = container.lenient(.imgId)
        url = container.lenient(.url)
        email = container.lenient(.email)
        created = container.lenient(.created)
        updated = container.lenient(.updated)
        presentations = container.lenientArray(.presentations)
    }

    /// The stored form, marked as received at `synchronized`.
    package func record(synchronized: String) -> ClientRecord {
        ClientRecord(
            clientId: id, name: name, shortDescription: shortDescription, longDescription: longDescription,
            email: email,
            url: url, imgId: imgId, thumbImgId: thumbImgId, lockoutEnabled: lockoutEnabled, created: created,
            updatedDate: updated, synchronized: synchronized)
    }
}

/// A presentation as a client lists it: `{id, revision, debug, skip, lockout}`.
package struct PresentationStubDTO: Sendable, Equatable, Decodable {
    package var id: Int64
    package var revision: Int64
    package var debug: Bool
    package var skip: Bool
    package var lockout: Bool

    /// Creates a stub.
    package init(id: Int64, revision: Int64, debug: Bool = false, skip: Bool = false, lockout: Bool = false) {
        self.id = id
        self.revision = revision
        self.debug = debug
        self.skip = skip
        self.lockout = lockout
    }

    private enum CodingKeys: String, CodingKey { case id, revision, debug, skip, lockout }

    package init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        id = try container.decode(Int64.self, forKey: .id)
        revision = container.lenient(.revision, default: -1)
        debug = container.lenient(.debug, default: false)
        skip = container.lenient(.skip, default: false)
        lockout = container.lenient(.lockout, default: false)
    }
}
