import SCLMCore

/// OSAM's `AppLanguageResponse`, also used for custom topic subscriptions.
package enum TopicResponse: String, Sendable, Codable {
    case success = "SUCCESS"
    case unchanged = "UNCHANGED"
    case error = "ERROR"
}

/// The subscriptions to change and the state to persist once the messaging provider has made them.
package struct TopicPlan: Sendable, Equatable {
    /// SUCCESS or UNCHANGED (ERROR comes from the provider).
    package var response: TopicResponse
    /// Topics to subscribe to, in order.
    package var subscribe: [String]
    /// Topics to unsubscribe from, in order.
    package var unsubscribe: [String]
    /// The state to persist after the provider succeeded.
    package var state: OSAMState
    /// Analytics events to log after the provider succeeded.
    package var events: [OSAMEvent]
}

/// OSAM's topic and language events (§8): which push topics an installation follows.
///
/// A version topic is `<last package segment>_<versionName>_<versionCode>_<LANGUAGE>`; each comes with the
/// bare language topic (`CA`, `ES`, `EN`). Fixed against OSAM: the previous topics are remembered
/// (``OSAMState/managedTopics``) instead of being rebuilt from the current build and language, so an
/// update or a language change unsubscribes what was really subscribed, and a versionCode-only update
/// moves to the new topic. Characters FCM does not allow in topic names are percent-encoded.
package enum TopicPolicy {
    /// The last dot-separated segment of `packageName` (`cat.bcn.commonmodule` → `commonmodule`).
    package static func smallPackageName(_ packageName: String) -> String {
        String(packageName.split(separator: ".", omittingEmptySubsequences: false).last ?? "")
    }

    /// The version topic of `app` in `language` (a language name such as `CA`).
    package static func versionTopic(for app: InstalledApp, language: String) -> String {
        [smallPackageName(app.packageName), app.versionName, String(app.versionCode), language]
            .map { PercentEncoding.escape($0) }.joined(separator: "_")
    }

    /// Whether `topic` is a valid FCM topic name: 1–900 characters of `[a-zA-Z0-9-_.~%]`.
    package static func isValidTopic(_ topic: String) -> Bool {
        (1...900).contains(topic.utf8.count)
            && topic.utf8.allSatisfy { PercentEncoding.isUnreserved($0) || $0 == UInt8(ascii: "%") }
    }

    /// `firstTimeOrUpdateEvent`: follow the topics of the installed build and `language`.
    ///
    /// UNCHANGED when they are already followed. On the first run (no previous versionName) it also records
    /// `language` as selected and logs `language_change`, unless that language is already selected.
    package static func firstTimeOrUpdate(
        language: Language, app: InstalledApp, deviceLanguage: String, state: OSAMState
    ) -> TopicPlan {
        let previousName = state.previousVersionName
        let current =
            state.managedTopics
            ?? (previousName.isEmpty
                ? []
                : [
                    versionTopic(for: withVersionName(app, previousName), language: language.rawValue),
                    language.rawValue,
                ])
        var plan = plan(from: current, to: desiredTopics(app, language), state: state)
        guard plan.response == .success else { return plan }
        plan.state.previousVersionName = app.versionName
        if previousName.isEmpty, state.selectedLanguage != language.rawValue {
            plan.events.append(select(language, deviceLanguage: deviceLanguage, in: &plan.state))
        }
        return plan
    }

    /// `changeLanguageEvent`: record the new language, log `language_change` and move the topics to it.
    ///
    /// UNCHANGED when `language` is already the selected one.
    package static func changeLanguage(
        language: Language, app: InstalledApp, deviceLanguage: String, state: OSAMState
    ) -> TopicPlan {
        let old = state.selectedLanguage
        guard old != language.rawValue else {
            return TopicPlan(response: .unchanged, subscribe: [], unsubscribe: [], state: state, events: [])
        }
        let current = state.managedTopics ?? (old.isEmpty ? [] : [versionTopic(for: app, language: old), old])
        var plan = plan(from: current, to: desiredTopics(app, language), state: state)
        plan.response = .success
        plan.events.append(select(language, deviceLanguage: deviceLanguage, in: &plan.state))
        return plan
    }

    private static func desiredTopics(_ app: InstalledApp, _ language: Language) -> [String] {
        [versionTopic(for: app, language: language.rawValue), language.rawValue]
    }

    /// The change from `current` to `desired`: UNCHANGED when they are the same topics; otherwise every
    /// desired topic is subscribed (again), as OSAM subscribes both the version and the language topic on
    /// each change, and what is no longer desired is unsubscribed.
    private static func plan(from current: [String], to desired: [String], state: OSAMState) -> TopicPlan {
        let unsubscribe = current.filter { !desired.contains($0) }
        guard !unsubscribe.isEmpty || desired.contains(where: { !current.contains($0) }) else {
            return TopicPlan(response: .unchanged, subscribe: [], unsubscribe: [], state: state, events: [])
        }
        var next = state
        next.managedTopics = desired
        return TopicPlan(response: .success, subscribe: desired, unsubscribe: unsubscribe, state: next, events: [])
    }

    private static func select(_ language: Language, deviceLanguage: String, in state: inout OSAMState) -> OSAMEvent {
        let previous = state.selectedLanguage
        state.displayedLanguage = deviceLanguage.uppercased()
        state.previousLanguage = previous
        state.selectedLanguage = language.rawValue
        return .languageChange(previous: previous, selected: language, displayed: state.displayedLanguage)
    }

    private static func withVersionName(_ app: InstalledApp, _ versionName: String) -> InstalledApp {
        var copy = app
        copy.versionName = versionName
        return copy
    }
}
