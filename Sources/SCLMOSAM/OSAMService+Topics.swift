import SCLMCore
import SCLMPolicy
import SCLMStore

/// The result of a topic or language event: the response and the subscriptions it changed.
package struct TopicOutcome: Sendable, Equatable {
    /// SUCCESS, UNCHANGED or ERROR.
    package var response: TopicResponse
    /// Topics subscribed by this call.
    package var subscribed: [String]
    /// Topics unsubscribed by this call.
    package var unsubscribed: [String]
    /// Why it failed, for ERROR.
    package var failure: String?

    /// Creates an outcome.
    package init(response: TopicResponse, subscribed: [String], unsubscribed: [String], failure: String? = nil) {
        self.response = response
        self.subscribed = subscribed
        self.unsubscribed = unsubscribed
        self.failure = failure
    }
}

extension OSAMService {
    /// `firstTimeOrUpdateEvent`: follow the topics of the installed build.
    ///
    /// - Throws: `StoreError`. A messaging failure is an ERROR outcome and persists nothing.
    package func firstTimeOrUpdate(app: InstalledApp, language: Language, deviceLanguage: String) async throws
        -> TopicOutcome
    {
        let state = try await state(of: app.packageName)
        let plan = TopicPolicy.firstTimeOrUpdate(
            language: language, app: app, deviceLanguage: deviceLanguage, state: state)
        return try await carryOut(plan, from: state, package: app.packageName)
    }

    /// `changeLanguageEvent`: record the language, log `language_change`, move the topics.
    ///
    /// - Throws: `StoreError`. A messaging failure is an ERROR outcome and persists nothing.
    package func changeLanguage(app: InstalledApp, language: Language, deviceLanguage: String) async throws
        -> TopicOutcome
    {
        let state = try await state(of: app.packageName)
        let plan = TopicPolicy.changeLanguage(
            language: language, app: app, deviceLanguage: deviceLanguage, state: state)
        return try await carryOut(plan, from: state, package: app.packageName)
    }

    /// `subscribeToCustomTopic` / `unsubscribeToCustomTopic`.
    ///
    /// - Throws: `SCLMError` (`.usage`) for a topic name FCM would refuse.
    package func customTopic(_ topic: String, subscribe: Bool, package packageName: String) async throws -> TopicOutcome
    {
        guard TopicPolicy.isValidTopic(topic) else {
            throw SCLMError(
                .usage, "'\(topic)' is not a valid topic name: use 1–900 characters of a-z A-Z 0-9 - _ . ~ %")
        }
        return await apply(
            subscribe: subscribe ? [topic] : [], unsubscribe: subscribe ? [] : [topic], package: packageName)
    }

    /// The messaging provider's registration token.
    ///
    /// - Throws: what the provider throws.
    package func token() async throws -> String {
        try await messaging.token()
    }

    private func carryOut(_ plan: TopicPlan, from state: OSAMState, package packageName: String) async throws
        -> TopicOutcome
    {
        guard plan.response == .success else {
            return TopicOutcome(response: plan.response, subscribed: [], unsubscribed: [], failure: nil)
        }
        let outcome = await apply(subscribe: plan.subscribe, unsubscribe: plan.unsubscribe, package: packageName)
        guard outcome.response == .success else { return outcome }
        let date = clock.now
        try await store.write { db in try db.saveOSAMState(plan.state, since: state, package: packageName, now: date) }
        await log(plan.events, package: packageName)
        return outcome
    }

    /// Makes the provider calls; the first failure turns the outcome into ERROR.
    private func apply(subscribe: [String], unsubscribe: [String], package packageName: String) async -> TopicOutcome {
        var outcome = TopicOutcome(response: .success, subscribed: [], unsubscribed: [], failure: nil)
        do {
            for topic in subscribe {
                try await messaging.subscribe(to: topic, package: packageName)
                outcome.subscribed.append(topic)
            }
            for topic in unsubscribe {
                try await messaging.unsubscribe(from: topic, package: packageName)
                outcome.unsubscribed.append(topic)
            }
        } catch {
            outcome.response = .error
            outcome.failure = error.userMessage
            logger.warning("topic change for \(packageName) failed: \(error.userMessage)")
        }
        return outcome
    }
}
