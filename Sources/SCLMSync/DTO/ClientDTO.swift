import SCLMStore

/// A client as `GET /v1/clients` lists it (StoryContent's `SCLMClient`), with its
/// presentations as stubs. Users, groups and tables are not used by sclm and not decoded.
public struct ClientDTO: Sendable, Equatable, Decodable {
    public var id: Int64
    public var name: String
    public var lockoutEnabled: Bool
    public var shortDescription: String?
    public var longDescription: String?
    public var thumbImgId: String?
    public var imgId: String?
    public var url: String?
    public var email: String?
    public var created: String?
    public var updated: String?
    public var presentations: [PresentationStubDTO]

    private enum CodingKeys: String, CodingKey {
        case id, name, lockoutEnabled, shortDescription, longDescription, thumbImgId, imgId, url, email, created,
            updated
        case presentations
    }

    public init(from decoder: any Decoder) throws {
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
    public func record(synchronized: String) -> ClientRecord {
        ClientRecord(
            clientId: id, name: name, shortDescription: shortDescription, longDescription: longDescription,
            email: email,
            url: url, imgId: imgId, thumbImgId: thumbImgId, lockoutEnabled: lockoutEnabled, created: created,
            updatedDate: updated, synchronized: synchronized)
    }
}

/// A presentation as a client lists it: `{id, revision, debug, skip, lockout}`.
public struct PresentationStubDTO: Sendable, Equatable, Decodable {
    public var id: Int64
    public var revision: Int64
    public var debug: Bool
    public var skip: Bool
    public var lockout: Bool

    /// Creates a stub.
    public init(id: Int64, revision: Int64, debug: Bool = false, skip: Bool = false, lockout: Bool = false) {
        self.id = id
        self.revision = revision
        self.debug = debug
        self.skip = skip
        self.lockout = lockout
    }

    private enum CodingKeys: String, CodingKey { case id, revision, debug, skip, lockout }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        id = try container.decode(Int64.self, forKey: .id)
        revision = container.lenient(.revision, default: -1)
        debug = container.lenient(.debug, default: false)
        skip = container.lenient(.skip, default: false)
        lockout = container.lenient(.lockout, default: false)
    }
}
