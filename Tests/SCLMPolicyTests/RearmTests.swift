import SCLMPolicy
import SCLMTestSupport
import Testing

/// §3.3: "don't show again" and the throttle last until the admin changes anything in the record.
@Suite(.tags(.small)) struct RearmTests {
    struct Case: Sendable, CustomTestStringConvertible {
        let name: String
        let remote: VersionRecord
        let app: InstalledApp
        let rearms: Bool
        var testDescription: String { name }
    }

    static let cached = Fixtures.record(.lazy)

    static func edit(_ name: String, _ change: @escaping (inout VersionRecord) -> Void) -> Case {
        Case(
            name: "re-arms when \(name) changes", remote: Fixtures.record(.lazy, change), app: Fixtures.app,
            rearms: true)
    }

    static let cases: [Case] = [
        edit("versionCode") { $0.versionCode += 1 },
        edit("versionName") { $0.versionName = "1.2.0" },
        edit("comparisonMode") { $0.mode = .info },
        edit("startDate") { $0.startDate -= 1 },
        edit("endDate") { $0.endDate += 1 },
        edit("a title") { $0.title.es = "Otra" },
        edit("a message") { $0.message.ca = "Altre" },
        edit("an ok label") { $0.ok.en = "Get it" },
        edit("a cancel label") { $0.cancel.en = "Later" },
        edit("url") { $0.url = "https://apps.example/other" },
        edit("checkBoxDontShowAgain") { $0.isCheckboxVisible = false },
        edit("dialogDisplayDuration") { $0.displayDuration = 60 },
        edit("the OS-version filter") { $0.filter.osRule = .greaterOrEqual },
        edit("the model list") { $0.filter.models = ["X"] },
        Case(
            name: "does not re-arm when only serverDate moves",
            remote: Fixtures.record(.lazy, serverDate: Fixtures.now + 1),
            app: Fixtures.app, rearms: false),
        Case(
            name: "Q5 kept: an app update alone does not re-arm",
            remote: cached,
            app: InstalledApp(packageName: Fixtures.app.packageName, versionCode: 2021070000, versionName: "1.2.0"),
            rearms: false),
        Case(
            name: "re-arms when the remote versionCode becomes the installed one (OSAM's rule 1 would not)",
            remote: Fixtures.record(.lazy) { $0.versionCode = Fixtures.app.versionCode }, app: Fixtures.app,
            rearms: true),
    ]

    @Test(arguments: cases) func rearmsOnAdminEditsOnly(_ test: Case) {
        let disarmed = Fixtures.state(caching: Self.cached, armed: false, lastAccept: Fixtures.now - 1000)
        let input = VersionControlPolicy.Input(
            now: Fixtures.now, fetch: .fetched(test.remote), app: test.app, language: .en)
        let decision = VersionControlPolicy.decide(input, state: disarmed)
        #expect(decision.state.isAlertArmed == test.rearms)
        #expect(decision.state.lastAcceptTime == (test.rearms ? 0 : Fixtures.now - 1000))
        #expect(
            decision.state.cachedRecord(serverDate: test.remote.serverDate) == test.remote, "the cache is overwritten")
        #expect(decision.state.versionCodeAtFetch == test.app.versionCode)
    }
}
