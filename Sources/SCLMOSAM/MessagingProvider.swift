import Foundation
import SCLMCore
import SCLMStore

/// Push-topic subscriptions and the registration token (OSAM's `MessagingWrapper`, FCM in the apps).
///
/// Implementations make each call idempotent (subscribing twice is fine) and throw when the change
/// could not be made, so the caller answers ERROR and retries on the next event.
package protocol MessagingProvider: Sendable {
    /// Subscribes this installation of `packageName` to `topic`.
    ///
    /// - Throws: any error when the subscription could not be made.
    func subscribe(to topic: String, package packageName: String) async throws
    /// Unsubscribes this installation of `packageName` from `topic`.
    ///
    /// - Throws: any error when the change could not be made.
    func unsubscribe(from topic: String, package packageName: String) async throws
    /// The registration token that identifies this installation to the push service.
    ///
    /// - Throws: any error when no token is available.
    func token() async throws -> String
}

/// Delivers one subscription change somewhere else (for example an HTTP webhook); throws when it failed.
package typealias SubscriptionNotifier = @Sendable (_ change: SubscriptionChange) async throws -> Void

/// One subscription change, as sent to a ``SubscriptionNotifier``.
package struct SubscriptionChange: Sendable, Equatable, Codable {
    /// `subscribe` or `unsubscribe`.
    package var action: String
    /// The package whose installation changes.
    package var package: String
    /// The topic.
    package var topic: String
    /// The installation's token.
    package var token: String

    /// Creates a change.
    package init(action: String, package: String, topic: String, token: String) {
        self.action = action
        self.package = package
        self.topic = topic
        self.token = token
    }
}

/// The default messaging provider: subscriptions are rows of the `preferences` table (scope
/// `osam-topics:<package>`, key = topic, value = when it was subscribed), optionally reported to a
/// notifier first; the token is a random installation id created once per home.
package struct StoreMessagingProvider: MessagingProvider {
    /// Where the installation id is kept.
    package static let tokenPreference = (scope: "osam", key: "INSTALLATION_ID")

    private let store: ContentStore
    private let notifier: SubscriptionNotifier?
    private let clock: any WallClock

    /// Creates a provider recording in `store`; `notifier`, when given, must accept each change before it is recorded.
    package init(store: ContentStore, notifier: SubscriptionNotifier? = nil, clock: any WallClock = SystemClock()) {
        self.store = store
        self.notifier = notifier
        self.clock = clock
    }

    /// The preferences scope of `packageName`'s subscriptions.
    package static func scope(package packageName: String) -> String { "osam-topics:\(packageName)" }

    package func subscribe(to topic: String, package packageName: String) async throws {
        try await change("subscribe", topic: topic, package: packageName, value: Timestamp.string(from: clock.now))
    }

    package func unsubscribe(from topic: String, package packageName: String) async throws {
        try await change("unsubscribe", topic: topic, package: packageName, value: nil)
    }

    package func token() async throws -> String {
        let now = clock.now
        return try await store.write { db in
            let (scope, key) = StoreMessagingProvider.tokenPreference
            if let token = try db.preference(scope: scope, key: key) { return token }
            let token = UUID().uuidString.lowercased()
            try db.setPreference(scope: scope, key: key, value: token, now: now)
            return token
        }
    }

    /// The topics `packageName` is subscribed to, sorted.
    ///
    /// - Throws: `StoreError`.
    package func subscriptions(package packageName: String) async throws -> [String] {
        try await store.read { db in
            try db.preferences(scope: StoreMessagingProvider.scope(package: packageName)).keys.sorted()
        }
    }

    private func change(_ action: String, topic: String, package packageName: String, value: String?) async throws {
        if let notifier {
            try await notifier(
                SubscriptionChange(action: action, package: packageName, topic: topic, token: try await token()))
        }
        let now = clock.now
        try await store.write { db in
            try db.setPreference(
                scope: StoreMessagingProvider.scope(package: packageName), key: topic, value: value, now: now)
        }
    }
}
