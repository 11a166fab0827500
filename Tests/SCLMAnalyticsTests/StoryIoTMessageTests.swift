import Foundation
import SCLMCore
import SCLMHTTP
import SCLMStore
import SCLMTestSupport
import Testing

@testable import SCLMAnalytics

@Suite(.tags(.medium)) struct StoryIoTMessageTests {
    let rows: AnalyticsStore
    let utc = TimeZone(identifier: "UTC") ?? .gmt

    init() throws {
        rows = try AnalyticsStore()
        try rows.write { db in
            try db.insertAnalyticsSession(
                "s-1", state: 1, userId: "user-1", created: "2026-03-01T09:15:02.123Z", complete: true, duration: 42,
                slidesCount: 2, latitude: 55.75, longitude: 37.61, address: "Tverskaya 1")
            try db.insertAnalyticsSlideView("a-1", sessionId: "s-1", slideId: 10101, slideName: "2.html", duration: 30)
            try db.insertAnalyticsCustomEvent("e-1", sessionId: "s-1", key: "brand", value: "cardiora")
        }
    }

    func message(_ kind: OutboxKind, device: DeviceFacts = .fixture) async throws -> StoryIoTMessage {
        let entry = try #require(try await rows.entries(kind).first)
        return try StoryIoTMessage(entry: entry, device: device, zone: utc)
    }

    func body(_ message: StoryIoTMessage) throws -> JSONValue { try JSONValue.parse(message.body) }

    @Test func sessionCarriesStoryContentKeysAndEveryMetadataHeader() async throws {
        let message = try await message(.session)
        #expect(
            message.headers.fields.map { [$0.name, $0.value] } == [
                ["s-m-eid", "story.content.session"], ["s-m-did", DeviceFacts.fixture.deviceId], ["s-m-uid", "user-1"],
                ["s-m-ct", "s-1"], ["s-m-id", "s-1"], ["s-m-cud", "u"], ["s-m-m", "Kiosk 3000"], ["s-m-os", "Linux"],
                ["s-m-osv", "6.1.0"], ["s-m-an", "sclm"], ["s-m-av", "1.2.3"],
                ["s-m-lt", "2026-03-01T12:15:02.1230000"],
                ["s-m-tz", "3"], ["s-m-geo", "on;55.75,37.61"], ["s-m-lng", "de"], ["s-m-ns", "LAN"],
            ])
        #expect(
            try body(message) == [
                "sessionId": "s-1", "presentationId": "101", "userId": "user-1", "address": "Tverskaya 1",
                "created": "2026-03-01T12:15:02.1230000", "state": 1, "complete": true, "latitude": 55.75,
                "longitude": 37.61, "duration": 42, "slidesCount": 2, "timeZone": 3, "completeSessionDuration": 42,
            ])
        #expect(message.entityId == "s-1")
    }

    @Test func slideViewBodyHasItsSessionAndSlide() async throws {
        let message = try await message(.slide)
        #expect(message.headers["s-m-eid"] == "story.content.slide")
        #expect(message.headers["s-m-id"] == "a-1" && message.headers["s-m-ct"] == "s-1")
        #expect(message.headers["s-m-geo"] == "off")
        #expect(
            try body(message) == [
                "id": "a-1", "sessionId": "s-1", "presentationId": "101", "userId": "user-1", "slideId": "10101",
                "slideName": "2.html", "navigation": "in", "created": "2026-03-01T12:15:03.0000000", "timeZone": 3,
                "duration": 30,
            ])
    }

    @Test func customEventLeavesOutUnknownValues() async throws {
        try rows.write { db in try db.execute("UPDATE custom_events SET userId = NULL") }
        let message = try await message(.customEvent)
        #expect(message.headers["s-m-eid"] == "story.content.customevent")
        #expect(message.headers["s-m-uid"] == nil)
        #expect(
            try body(message) == [
                "id": "e-1", "sessionId": "s-1", "presentationId": "101", "key": "brand", "value": "cardiora",
                "created": "2026-03-01T12:15:04.0000000", "timeZone": 3,
            ])
    }

    @Test func controlCharactersNeverReachAHeader() async throws {
        var device = DeviceFacts.fixture
        device.appName = "kiosk\r\nX-Injected: yes"
        let message = try await message(.session, device: device)
        #expect(message.headers["s-m-an"] == "kioskX-Injected: yes")
        #expect(message.headers["X-Injected"] == nil)
    }

    @Test func aBodyOverTheLimitCannotBeSent() async throws {
        let value = String(repeating: "x", count: StoryIoTMessage.maxBodyBytes)
        try rows.write { db in try db.execute("UPDATE custom_events SET value = ?", [value]) }
        let entry = try #require(try await rows.entries(.customEvent).first)
        let error = try #require(throws: MessageError.self) {
            try StoryIoTMessage(entry: entry, device: .fixture, zone: utc)
        }
        #expect(error.reason.contains("accepts at most 262144"))
    }

    @Test func anUnreadableCreatedTimeCannotBeSent() async throws {
        try rows.write { db in try db.execute("UPDATE session_actions SET created = 'yesterday'") }
        let entry = try #require(try await rows.entries(.slide).first)
        let error = try #require(throws: MessageError.self) {
            try StoryIoTMessage(entry: entry, device: .fixture, zone: utc)
        }
        #expect(error.reason.contains("'yesterday'"))
    }
}
