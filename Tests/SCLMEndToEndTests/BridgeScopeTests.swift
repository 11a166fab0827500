import Foundation
import SCLMCore
import SCLMTestSupport
import Testing

/// A presentation sees only its own client's presentations, sessions and custom events through the built
/// `sclm bridge`, and under a password login only the sessions its user recorded: two clients' (and two
/// users') data in one home, read by hostile slides.
@Suite(.tags(.large), .timeLimit(.minutes(2))) struct BridgeScopeTests {
    /// Client 1's presentation (with a media file), whose data must stay out of client 2's reach.
    static let other = InstalledPresentationFixture(presentationId: 10, clientId: 1, clientName: "Client one")
    /// Client 2's presentations.
    static let own = InstalledPresentationFixture(
        presentationId: 20, clientId: 2, clientName: "Client two", name: "Own deck", slides: [.init("index.html")],
        mediaFiles: [])
    static let ownSecond = InstalledPresentationFixture(
        presentationId: 21, clientId: 2, clientName: "Client two", name: "Own second", slides: [.init("index.html")],
        mediaFiles: [])

    /// One bridge run in `home` on `presentationId` as the stored login: it records a completed session
    /// with the custom event `key`; returns the session id.
    static func recordSession(in home: Home, presentationId: Int64, key: String) async throws -> String {
        let bridge = try BridgeProcess(sclm: ["bridge", "--presentation", String(presentationId)], home: home.root)
        let opened = try #require(
            await bridge.event("presentationOpened")?["Data"] as? [String: Any], "\(bridge.stderr)")
        let sessionId = try #require(opened["sessionId"] as? String)
        #expect(await call(bridge, "setCustomEvent", ["key": key, "value": "secret"])?["ErrorCode"] as? Int == 200)
        #expect(await call(bridge, "closePresentation", ["mode": 1])?["ErrorCode"] as? Int == 200)
        #expect(await bridge.finish() == 0)
        return sessionId
    }

    static func call(_ bridge: BridgeProcess, _ command: String, _ data: [String: Any] = [:]) async -> [String: Any]? {
        let guid = UUID().uuidString
        bridge.send(json: ["Command": command, "Data": data, "GUID": guid])
        return await bridge.response(to: guid)
    }

    /// A home with both clients' presentations and a login as `user`.
    static func home(in folder: TemporaryDirectory, user: String = "user-42", grantType: String = "password") throws
        -> Home
    {
        let home = Home(root: folder.appending("home"))
        for fixture in [other, own, ownSecond] { try fixture.install(in: home) }
        try InstalledPresentationFixture.logIn(
            subject: user, userName: "\(user)@example.com", grantType: grantType, in: home)
        return home
    }

    /// A home where client 1 (`foreign`) and client 2 (`own`) each recorded a session, and a bridge on
    /// client 2's presentation 20.
    struct TwoClients {
        let folder = TemporaryDirectory(prefix: "sclm-scope")
        let home: Home
        let foreign: String
        let own: String
        let bridge: BridgeProcess

        init() async throws {
            home = try BridgeScopeTests.home(in: folder)
            foreign = try await BridgeScopeTests.recordSession(in: home, presentationId: 10, key: "foreignKey")
            own = try await BridgeScopeTests.recordSession(in: home, presentationId: 21, key: "ownKey")
            bridge = try BridgeProcess(sclm: ["bridge", "--presentation", "20"], home: home.root)
        }

        func call(_ command: String, _ data: [String: Any] = [:]) async -> [String: Any]? {
            await BridgeScopeTests.call(bridge, command, data)
        }
    }

    @Test func getSessionsListsOnlyTheClientsSessions() async throws {
        let clients = try await TwoClients()
        let sessions = try #require(await clients.call("getSessions")?["Data"] as? [[String: Any]])
        #expect(sessions.contains { $0["sessionId"] as? String == clients.own })
        #expect(
            !sessions.contains { $0["sessionId"] as? String == clients.foreign },
            "getSessions leaks client 1: \(sessions)")
        #expect(sessions.allSatisfy { ["20", "21"].contains($0["presentationId"] as? String) })
        #expect(await clients.bridge.finish() == 0)
    }

    @Test func getSessionByIdOfAnotherClientsSessionAnswers404() async throws {
        let clients = try await TwoClients()
        let foreign = await clients.call("getSessionById", ["id": clients.foreign])
        #expect(foreign?["ErrorCode"] as? Int == 404, "getSessionById leaks client 1: \(String(describing: foreign))")
        #expect(await clients.call("getSessionById", ["id": clients.own])?["ErrorCode"] as? Int == 200)
        #expect(await clients.bridge.finish() == 0)
    }

    @Test func getCustomEventsObjectOfAnotherClientAnswers404() async throws {
        let clients = try await TwoClients()
        let foreign = await clients.call("getCustomEventsObject", ["sessionId": clients.foreign, "contentId": 10])
        #expect(
            foreign?["ErrorCode"] as? Int == 404, "getCustomEventsObject leaks client 1: \(String(describing: foreign))"
        )
        let crossed = await clients.call("getCustomEventsObject", ["sessionId": clients.own, "contentId": "10"])
        #expect(crossed?["ErrorCode"] as? Int == 404, "an own session with another client's presentation")
        let own = await clients.call("getCustomEventsObject", ["sessionId": clients.own, "contentId": 21])
        #expect(own?["Data"] as? [String: String] == ["ownKey": "secret"])
        #expect(await clients.bridge.finish() == 0)
    }

    @Test func openOfAnotherClientsPresentationAnswers404AndStaysOutOfTheLists() async throws {
        let clients = try await TwoClients()
        let opened = await clients.call("open", ["presId": 10, "slideName": "", "data": [:]])
        #expect(opened?["ErrorCode"] as? Int == 404, "open reaches client 1: \(String(describing: opened))")
        #expect(await clients.call("open", ["presId": 21, "slideName": "", "data": [:]])?["ErrorCode"] as? Int == 200)
        let history = try #require(await clients.call("getBackForwardPresList")?["Data"] as? [[String: Any]])
        #expect(history.map { $0["presId"] as? Int } == [20, 21])
        let presentations = try #require(await clients.call("getPresentations")?["Data"] as? [[String: Any]])
        #expect(Set(presentations.compactMap { $0["presId"] as? Int }) == [20, 21])
        #expect(await clients.bridge.finish() == 0)
    }

    @Test func openMediaFileOfAnotherClientsPresentationAnswers404() async throws {
        let clients = try await TwoClients()
        let media = await clients.call("openMediaFile", ["id": 10, "name": "brochure.pdf"])
        #expect(media?["ErrorCode"] as? Int == 404, "openMediaFile reaches client 1: \(String(describing: media))")
        #expect(await clients.bridge.finish() == 0)
    }

    @Test func underAPasswordLoginOnlyTheUsersOwnSessionsAreServed() async throws {
        let folder = TemporaryDirectory(prefix: "sclm-scope")
        let home = try Self.home(in: folder, user: "user-7")
        let colleague = try await Self.recordSession(in: home, presentationId: 21, key: "theirKey")
        try InstalledPresentationFixture.logIn(subject: "user-42", userName: "anna@example.com", in: home)

        let bridge = try BridgeProcess(sclm: ["bridge", "--presentation", "20"], home: home.root)
        let sessions = try #require(await Self.call(bridge, "getSessions")?["Data"] as? [[String: Any]])
        #expect(!sessions.contains { $0["sessionId"] as? String == colleague })
        #expect(
            await Self.call(bridge, "getSessionById", ["id": colleague])?["ErrorCode"] as? Int == 404,
            "another user's session")
        let events = await Self.call(bridge, "getCustomEventsObject", ["sessionId": colleague, "contentId": 21])
        #expect(events?["ErrorCode"] as? Int == 404, "another user's custom events: \(String(describing: events))")
        let current = try #require(await Self.call(bridge, "getCurrentSession")?["Data"] as? [String: Any])
        #expect(current["userId"] as? String == "user-42")
        #expect(await bridge.finish() == 0)
    }

    @Test func underAServiceLoginTheClientsSessionsOfEveryUserAreServed() async throws {
        let folder = TemporaryDirectory(prefix: "sclm-scope")
        let home = try Self.home(in: folder, user: "user-7")
        let colleague = try await Self.recordSession(in: home, presentationId: 21, key: "theirKey")
        let foreign = try await Self.recordSession(in: home, presentationId: 10, key: "foreignKey")
        try InstalledPresentationFixture.logIn(
            subject: "kiosk", userName: "kiosk", grantType: "client_credentials", in: home)

        let bridge = try BridgeProcess(sclm: ["bridge", "--presentation", "20"], home: home.root)
        #expect(await Self.call(bridge, "getSessionById", ["id": colleague])?["ErrorCode"] as? Int == 200)
        #expect(await Self.call(bridge, "getSessionById", ["id": foreign])?["ErrorCode"] as? Int == 404)
        let events = await Self.call(bridge, "getCustomEventsObject", ["sessionId": colleague, "contentId": 21])
        #expect(events?["Data"] as? [String: String] == ["theirKey": "secret"])
        #expect(await bridge.finish() == 0)
    }
}
