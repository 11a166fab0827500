import SCLMPolicy
import SCLMTestSupport
import Testing

/// Topic names and the language/topic events of §8.
@Suite(.tags(.small)) struct TopicPolicyTests {
    static let app = Fixtures.app  // cat.bcn.commonmodule 1.0.0 (2021050000)
    static let topicCA = "commonmodule_1.0.0_2021050000_CA"
    static let topicES = "commonmodule_1.0.0_2021050000_ES"

    struct NameCase: Sendable, CustomTestStringConvertible {
        let packageName: String
        let versionName: String
        let versionCode: Int64
        let language: String
        let topic: String
        var testDescription: String { topic }
    }

    static let names: [NameCase] = [
        NameCase(
            packageName: "cat.bcn.commonmodule", versionName: "1.0.0", versionCode: 2021050000, language: "CA",
            topic: topicCA),
        NameCase(packageName: "single", versionName: "2.1", versionCode: 7, language: "EN", topic: "single_2.1_7_EN"),
        NameCase(packageName: "com.example.", versionName: "1", versionCode: 1, language: "ES", topic: "_1_1_ES"),
        NameCase(
            packageName: "a.b", versionName: "1.0 beta+3", versionCode: 12, language: "EN",
            topic: "b_1.0%20beta%2B3_12_EN"),
        NameCase(packageName: "a.b", versionName: "100%", versionCode: 1, language: "CA", topic: "b_100%25_1_CA"),
        NameCase(packageName: "a.b", versionName: "é", versionCode: 1, language: "CA", topic: "b_%C3%A9_1_CA"),
    ]

    @Test(arguments: names) func buildsTopicNames(_ test: NameCase) {
        let app = InstalledApp(
            packageName: test.packageName, versionCode: test.versionCode, versionName: test.versionName)
        let topic = TopicPolicy.versionTopic(for: app, language: test.language)
        #expect(topic == test.topic)
        #expect(TopicPolicy.isValidTopic(topic))
    }

    @Test(arguments: [
        ("news", true), ("a-b_c.d~e%20", true), ("", false), ("with space", false), ("a/b", false),
        ("ñ", false), (String(repeating: "x", count: 900), true), (String(repeating: "x", count: 901), false),
    ])
    func validatesFCMTopicNames(_ topic: String, _ valid: Bool) {
        #expect(TopicPolicy.isValidTopic(topic) == valid)
    }

    // MARK: - firstTimeOrUpdateEvent

    @Test func firstRunSubscribesTheVersionAndLanguageTopicsAndRecordsTheLanguage() {
        let plan = TopicPolicy.firstTimeOrUpdate(language: .ca, app: Self.app, deviceLanguage: "es", state: OSAMState())
        #expect(plan.response == .success)
        #expect(plan.subscribe == [Self.topicCA, "CA"])
        #expect(plan.unsubscribe == [])
        #expect(plan.state.previousVersionName == "1.0.0")
        #expect(plan.state.selectedLanguage == "CA")
        #expect(plan.state.previousLanguage == "")
        #expect(plan.state.displayedLanguage == "ES")
        #expect(plan.events == [.languageChange(previous: "", selected: .ca, displayed: "ES")])
        #expect(
            plan.events.first?.parameters == [
                "item_id": "osam_commons", "previous_language": "", "selected_language": "CA", "language_disp": "ES",
            ])
    }

    @Test func firstRunAfterAVersionCheckLogsNoLanguageChange() {
        var state = OSAMState()
        state.selectedLanguage = "CA"
        let plan = TopicPolicy.firstTimeOrUpdate(language: .ca, app: Self.app, deviceLanguage: "ca", state: state)
        #expect(plan.response == .success)
        #expect(plan.events.isEmpty)
    }

    @Test func theSameBuildAgainIsUnchanged() {
        let first = TopicPolicy.firstTimeOrUpdate(
            language: .ca, app: Self.app, deviceLanguage: "ca", state: OSAMState())
        let second = TopicPolicy.firstTimeOrUpdate(
            language: .ca, app: Self.app, deviceLanguage: "ca", state: first.state)
        #expect(second.response == .unchanged)
        #expect(second.subscribe.isEmpty && second.unsubscribe.isEmpty)
        #expect(second.state == first.state)
    }

    struct UpdateCase: Sendable, CustomTestStringConvertible {
        let name: String
        let updated: InstalledApp
        let subscribe: [String]
        let unsubscribe: [String]
        var testDescription: String { name }
    }

    static let updates: [UpdateCase] = [
        UpdateCase(
            name: "a new versionName moves to its topic and re-subscribes the language topic, as OSAM does",
            updated: InstalledApp(packageName: app.packageName, versionCode: 2021060000, versionName: "1.1.0"),
            subscribe: ["commonmodule_1.1.0_2021060000_CA", "CA"], unsubscribe: [topicCA]),
        UpdateCase(
            name: "fixed: a versionCode-only update moves too (OSAM answers UNCHANGED)",
            updated: InstalledApp(packageName: app.packageName, versionCode: 2021050001, versionName: "1.0.0"),
            subscribe: ["commonmodule_1.0.0_2021050001_CA", "CA"], unsubscribe: [topicCA]),
    ]

    @Test(arguments: updates) func anUpdateUnsubscribesTheTopicReallySubscribed(_ test: UpdateCase) {
        let first = TopicPolicy.firstTimeOrUpdate(
            language: .ca, app: Self.app, deviceLanguage: "ca", state: OSAMState())
        let plan = TopicPolicy.firstTimeOrUpdate(
            language: .ca, app: test.updated, deviceLanguage: "ca", state: first.state)
        #expect(plan.response == .success)
        #expect(plan.subscribe == test.subscribe)
        #expect(plan.unsubscribe == test.unsubscribe)
        #expect(plan.state.previousVersionName == test.updated.versionName)
        #expect(plan.events.isEmpty, "not a first run")
    }

    @Test func stateCarriedOverFromOSAMRebuildsTheOldTopicLikeOSAM() {
        var state = OSAMState()
        state.previousVersionName = "0.9.0"
        state.selectedLanguage = "CA"
        let plan = TopicPolicy.firstTimeOrUpdate(language: .ca, app: Self.app, deviceLanguage: "ca", state: state)
        #expect(plan.subscribe == [Self.topicCA, "CA"])
        #expect(plan.unsubscribe == ["commonmodule_0.9.0_2021050000_CA"])
        #expect(plan.state.managedTopics == [Self.topicCA, "CA"])
    }

    // MARK: - changeLanguageEvent

    @Test func changingToTheSelectedLanguageIsUnchanged() {
        var state = OSAMState()
        state.selectedLanguage = "ES"
        let plan = TopicPolicy.changeLanguage(language: .es, app: Self.app, deviceLanguage: "ca", state: state)
        #expect(plan.response == .unchanged)
        #expect(plan.state == state)
        #expect(plan.events.isEmpty)
    }

    @Test func changingLanguageMovesBothTopicsAndLogsTheChange() {
        let first = TopicPolicy.firstTimeOrUpdate(
            language: .ca, app: Self.app, deviceLanguage: "ca", state: OSAMState())
        let plan = TopicPolicy.changeLanguage(language: .es, app: Self.app, deviceLanguage: "en", state: first.state)
        #expect(plan.response == .success)
        #expect(plan.subscribe == [Self.topicES, "ES"])
        #expect(plan.unsubscribe == [Self.topicCA, "CA"])
        #expect(plan.state.selectedLanguage == "ES")
        #expect(plan.state.previousLanguage == "CA")
        #expect(plan.state.displayedLanguage == "EN")
        #expect(plan.events == [.languageChange(previous: "CA", selected: .es, displayed: "EN")])
    }

    @Test func aFirstLanguageChangeOnlySubscribes() {
        let plan = TopicPolicy.changeLanguage(language: .en, app: Self.app, deviceLanguage: "en", state: OSAMState())
        #expect(plan.response == .success)
        #expect(plan.subscribe == ["commonmodule_1.0.0_2021050000_EN", "EN"])
        #expect(plan.unsubscribe == [])
        #expect(plan.state.previousLanguage == "")
    }

    @Test func aLanguageChangeThenTheNextLaunchIsUnchanged() {
        let first = TopicPolicy.firstTimeOrUpdate(
            language: .ca, app: Self.app, deviceLanguage: "ca", state: OSAMState())
        let changed = TopicPolicy.changeLanguage(language: .es, app: Self.app, deviceLanguage: "ca", state: first.state)
        let relaunch = TopicPolicy.firstTimeOrUpdate(
            language: .es, app: Self.app, deviceLanguage: "ca", state: changed.state)
        #expect(relaunch.response == .unchanged)
    }
}
