import SCLMPolicy
import SCLMTestSupport
import Testing

/// Sequences of checks and answers over persisted state: the quirks of §3.10 this port keeps or fixes,
/// and the flows a user sees (throttle, "don't show again", re-arm, offline).
@Suite(.tags(.small)) struct VersionControlScenarioTests {
    enum Step: Sendable {
        /// A check at `now` with `fetch`; expects `result`/`reason` and the logged event names.
        case check(
            FetchResult<VersionRecord>, at: Int64, app: InstalledApp = Fixtures.app, VersionControlResult,
            VersionControlReason, events: [String]? = nil)
        /// An answer at `now`; expects `response`.
        case answer(AlertChoice, dontShowAgain: Bool = false, at: Int64, VersionControlResponse)
    }

    struct Scenario: Sendable, CustomTestStringConvertible {
        let name: String
        let steps: [Step]
        var testDescription: String { name }
    }

    static let now = Fixtures.now
    static let hour = Fixtures.hour
    static let lazy = FetchResult.fetched(Fixtures.record(.lazy))
    static let info = FetchResult.fetched(Fixtures.record(.info))
    static let force = FetchResult.fetched(Fixtures.record(.force))
    static let showed = ["version_control_popup_showed"]

    static let scenarios: [Scenario] = [
        Scenario(
            name: "Q1 fixed: a record without the optional fields shows with the README defaults",
            steps: [
                .check(
                    .fetched(
                        VersionRecord(
                            serverDate: now, mode: .lazy, title: LocalizedText("t"), message: LocalizedText("m"))),
                    at: now, .show, .armed),
                .answer(.ok, at: now, .accepted),
                .check(
                    .fetched(
                        VersionRecord(
                            serverDate: now, mode: .lazy, title: LocalizedText("t"), message: LocalizedText("m"))),
                    at: now + 3_599_999, .dismissed, .throttled),
            ]),
        Scenario(
            name: "Q2 kept: INFO OK answers DISMISSED and throttles",
            steps: [
                .check(info, at: now, .show, .armed),
                .answer(.ok, at: now, .dismissed),
                .check(info, at: now + hour - 1, .dismissed, .throttled),
                .check(info, at: now + hour, .show, .armed),
            ]),
        Scenario(
            name: "Q3 fixed: showed is logged only when an alert is shown",
            steps: [
                .check(lazy, at: now, .show, .armed, events: showed),
                .answer(.ok, dontShowAgain: true, at: now, .accepted),
                .check(lazy, at: now + 2 * hour, .dismissed, .dontShowAgain, events: []),
                .check(
                    .fetched(
                        Fixtures.record(.force) {
                            $0.filter.models = []; $0.filter.modelRule = .only
                        }), at: now, .dismissed, .modelFiltered, events: []),
            ]),
        Scenario(
            name: "Q4 kept: LAZY Cancel does not throttle; the alert is back on the next check",
            steps: [
                .check(lazy, at: now, .show, .armed),
                .answer(.cancel, dontShowAgain: true, at: now, .cancelled),
                .check(lazy, at: now + 1, .show, .armed),
            ]),
        Scenario(
            name: "Q5 kept: don't-show-again survives an app update but not an admin edit",
            steps: [
                .check(lazy, at: now, .show, .armed),
                .answer(.ok, dontShowAgain: true, at: now, .accepted),
                .check(
                    lazy, at: now + 2 * hour,
                    app: InstalledApp(
                        packageName: Fixtures.app.packageName, versionCode: 2021060000, versionName: "1.1.0"),
                    .dismissed, .dontShowAgain),
                .check(
                    .fetched(Fixtures.record(.lazy) { $0.message.en = "Really, update" }), at: now + 2 * hour, .show,
                    .armed),
            ]),
        Scenario(
            name: "Q5 kept: flipping NONE → LAZY re-arms",
            steps: [
                .check(lazy, at: now, .show, .armed),
                .answer(.ok, dontShowAgain: true, at: now, .accepted),
                .check(.fetched(Fixtures.record(.none)), at: now + 1, .dismissed, .modeNone),
                .check(lazy, at: now + 2, .show, .armed),
            ]),
        Scenario(
            name: "Q6 kept: the window uses serverDate online and the device clock offline",
            steps: [
                .check(force, at: now + 1000 * hour, .show, .force),
                .check(.offline, at: now + 1000 * hour, .dismissed, .outsideWindow),
                .check(.offline, at: now, .show, .force),
            ]),
        Scenario(
            name: "Q6 kept: a clock moved back after an OK does not bring the alert back early",
            steps: [
                .check(lazy, at: now, .show, .armed),
                .answer(.ok, at: now, .accepted),
                .check(lazy, at: now - 30 * Fixtures.minute, .dismissed, .throttled),
                .check(lazy, at: now - 2 * hour, .dismissed, .throttled),
                .check(lazy, at: now + hour - 1, .dismissed, .throttled),
                .check(lazy, at: now + hour, .show, .armed),
            ]),
        Scenario(
            name: "Q9 kept: the record's platform is not compared with the device",
            steps: [
                .check(
                    lazy, at: now,
                    app: InstalledApp(packageName: "cat.bcn.commonmodule", versionCode: 1, osVersion: "", model: ""),
                    .show, .armed)
            ]),
        Scenario(
            name: "FORCE comes back on every check, answered or not",
            steps: [
                .check(force, at: now, .show, .force),
                .answer(.ok, dontShowAgain: true, at: now, .accepted),
                .check(force, at: now + 1, .show, .force),
                .answer(.dismiss, at: now + 1, .dismissed),
                .check(.offline, at: now + 2, .show, .force),
            ]),
        Scenario(
            name: "offline: the cache serves only the build it was fetched for",
            steps: [
                .check(.offline, at: now, .dismissed, .offlineNeverFetched),
                .check(lazy, at: now, .show, .armed),
                .answer(.cancel, at: now, .cancelled),
                .check(.offline, at: now + 1, .show, .armed),
                .check(
                    .offline, at: now + 1,
                    app: InstalledApp(packageName: Fixtures.app.packageName, versionCode: 2021070000), .dismissed,
                    .offlineOtherBuild),
            ]),
        Scenario(
            name: "offline: an accepted LAZY stays throttled offline",
            steps: [
                .check(lazy, at: now, .show, .armed),
                .answer(.ok, at: now, .accepted),
                .check(.offline, at: now + 10, .dismissed, .throttled),
                .check(.offline, at: now + hour, .show, .armed),
            ]),
        Scenario(
            name: "a failed fetch leaves the throttle and the cache as they were",
            steps: [
                .check(lazy, at: now, .show, .armed),
                .answer(.ok, at: now, .accepted),
                .check(.failed("timeout"), at: now + 10, .error, .fetchFailed),
                .check(.offline, at: now + 10, .dismissed, .throttled),
            ]),
        Scenario(
            name: "ALVersionControl optional is shown once until the status returns to up to date",
            steps: [
                .check(
                    .fetched(
                        VersionRecord(
                            serverDate: now, mode: .lazy, title: AlertTexts.defaultTitle, message: LocalizedText("new"),
                            isCheckboxVisible: false, displayDuration: 0, showsOnce: true)), at: now, .show, .armed),
                .answer(.dismiss, at: now, .dismissed),
                .check(
                    .fetched(
                        VersionRecord(
                            serverDate: now + 5, mode: .lazy, title: AlertTexts.defaultTitle,
                            message: LocalizedText("new"), isCheckboxVisible: false, displayDuration: 0, showsOnce: true
                        )), at: now + 5, .dismissed, .dontShowAgain),
                .check(
                    .fetched(
                        VersionRecord(
                            serverDate: now + 6, mode: .none, title: AlertTexts.defaultTitle,
                            message: LocalizedText("new"), isCheckboxVisible: false, displayDuration: 0)), at: now + 6,
                    .dismissed, .modeNone),
                .check(
                    .fetched(
                        VersionRecord(
                            serverDate: now + 7, mode: .lazy, title: AlertTexts.defaultTitle,
                            message: LocalizedText("new"), isCheckboxVisible: false, displayDuration: 0, showsOnce: true
                        )), at: now + 7, .show, .armed),
            ]),
    ]

    @Test(arguments: scenarios) func runs(_ scenario: Scenario) throws {
        var state = OSAMState()
        for (index, step) in scenario.steps.enumerated() {
            switch step {
            case let .check(fetch, now, app, result, reason, events):
                let decision = VersionControlPolicy.decide(
                    .init(now: now, fetch: fetch, app: app, language: .en), state: state)
                #expect(decision.result == result, "step \(index + 1)")
                #expect(decision.reason == reason, "step \(index + 1)")
                if let events { #expect(decision.events.map(\.name) == events, "step \(index + 1)") }
                state = decision.state
            case let .answer(choice, dontShowAgain, now, response):
                let answer = try VersionControlPolicy.answer(
                    choice, dontShowAgain: dontShowAgain, now: now, state: state)
                #expect(answer.response == response, "step \(index + 1)")
                state = answer.state
            }
        }
    }
}
