import SCLMPolicy
import SCLMTestSupport
import Testing

/// The OSAM version-control decision table, one case per row and boundary.
@Suite(.tags(.small)) struct VersionControlPolicyTests {
    typealias Input = VersionControlPolicy.Input

    struct Case: Sendable, CustomTestStringConvertible {
        let name: String
        let state: OSAMState
        let input: Input
        let result: VersionControlResult
        let reason: VersionControlReason
        var testDescription: String { name }
    }

    static func online(
        _ record: VersionRecord, now: Int64 = Fixtures.now, app: InstalledApp = Fixtures.app, showing: Bool = false
    ) -> Input {
        Input(now: now, fetch: .fetched(record), app: app, language: .ca, isAlertShowing: showing)
    }

    static func offline(now: Int64 = Fixtures.now, app: InstalledApp = Fixtures.app) -> Input {
        Input(now: now, fetch: .offline, app: app, language: .ca)
    }

    static func app(
        os: String = Fixtures.app.osVersion, model: String = Fixtures.app.model, code: Int64 = Fixtures.app.versionCode
    ) -> InstalledApp {
        var app = Fixtures.app
        app.osVersion = os
        app.model = model
        app.versionCode = code
        return app
    }

    static let lazy = Fixtures.record(.lazy)
    static let info = Fixtures.record(.info)
    static let force = Fixtures.record(.force)
    static let now = Fixtures.now
    static let hour = Fixtures.hour

    static let cases: [Case] = [
        // Row 1
        Case(
            name: "1: an alert already showing → ERROR without a fetch", state: Fixtures.state(caching: nil),
            input: online(force, showing: true), result: .error, reason: .alertPending),
        // Row 2
        Case(
            name: "2: a failed fetch → ERROR", state: Fixtures.state(caching: lazy),
            input: Input(now: now, fetch: .failed("HTTP 503"), app: Fixtures.app, language: .ca), result: .error,
            reason: .fetchFailed),
        // Row 3
        Case(
            name: "3: offline and never fetched → DISMISSED", state: OSAMState(), input: offline(),
            result: .dismissed, reason: .offlineNeverFetched),
        Case(
            name: "3: offline with a FORCE cached for another build → DISMISSED",
            state: Fixtures.state(caching: force, installedCode: 2020000000), input: offline(),
            result: .dismissed, reason: .offlineOtherBuild),
        Case(
            name: "3: offline with a FORCE cached for this build → SHOW FORCE", state: Fixtures.state(caching: force),
            input: offline(), result: .show, reason: .force),
        Case(
            name: "3: offline with a LAZY cached for this build and armed → SHOW LAZY",
            state: Fixtures.state(caching: lazy),
            input: offline(), result: .show, reason: .armed),
        // Row 4
        Case(
            name: "4: serverDate before startDate → DISMISSED, FORCE included", state: OSAMState(),
            input: online(Fixtures.record(.force) { $0.startDate = now + 1 }), result: .dismissed,
            reason: .outsideWindow),
        Case(
            name: "4: serverDate after endDate → DISMISSED", state: OSAMState(),
            input: online(Fixtures.record(.force) { $0.endDate = now - 1 }), result: .dismissed, reason: .outsideWindow),
        Case(
            name: "4: serverDate == startDate is inside (inclusive)", state: OSAMState(),
            input: online(Fixtures.record(.force) { $0.startDate = now }), result: .show, reason: .force),
        Case(
            name: "4: serverDate == endDate is inside (inclusive)", state: OSAMState(),
            input: online(Fixtures.record(.force) { $0.endDate = now }), result: .show, reason: .force),
        Case(
            name: "4: start == end == serverDate shows (a one-instant window)", state: OSAMState(),
            input: online(
                Fixtures.record(.force) {
                    $0.startDate = now; $0.endDate = now
                }), result: .show, reason: .force),
        Case(
            name: "4: README sample (start == end, serverDate after both) never shows", state: OSAMState(),
            input: online(
                Fixtures.record(.force) {
                    $0.startDate = 1645311600000; $0.endDate = 1645311600000; $0.serverDate = 1645788600000
                }),
            result: .dismissed, reason: .outsideWindow),
        Case(
            name: "4: online uses serverDate, not a skewed device clock", state: OSAMState(),
            input: online(force, now: now + 400 * hour), result: .show, reason: .force),
        Case(
            name: "4: online with serverDate outside, device clock inside → DISMISSED", state: OSAMState(),
            input: online(Fixtures.record(.force, serverDate: now + 48 * hour), now: now), result: .dismissed,
            reason: .outsideWindow),
        Case(
            name: "4: offline uses the device clock against the cached window", state: Fixtures.state(caching: force),
            input: offline(now: now + 25 * hour), result: .dismissed, reason: .outsideWindow),
        // Row 5
        Case(
            name: "5: mode NONE → DISMISSED", state: OSAMState(), input: online(Fixtures.record(.none)),
            result: .dismissed, reason: .modeNone),
        // Row 6 (3.2)
        Case(
            name: "6: FORCE filtered out by the OS rule → DISMISSED",
            state: OSAMState(),
            input: online(Fixtures.record(.force) { $0.filter = .init(osRule: .greaterOrEqual, osVersion: "15") }),
            result: .dismissed, reason: .osVersionFiltered),
        Case(
            name: "6: LAZY filtered out by the model rule → DISMISSED",
            state: OSAMState(),
            input: online(Fixtures.record(.lazy) { $0.filter = .init(modelRule: .except, models: ["SM-A536B"]) }),
            result: .dismissed, reason: .modelFiltered),
        Case(
            name: "6: INFO passing both rules → SHOW",
            state: OSAMState(),
            input: online(
                Fixtures.record(.info) {
                    $0.filter = .init(osRule: .lessOrEqual, osVersion: "14.0", modelRule: .only, models: ["SM-A536B"])
                }),
            result: .show, reason: .armed),
        Case(
            name: "5 before 6: NONE is reported as NONE even when the filter would reject", state: OSAMState(),
            input: online(Fixtures.record(.none) { $0.filter = .init(modelRule: .only, models: []) }),
            result: .dismissed, reason: .modeNone),
        Case(
            name: "6: the cached filter applies offline",
            state: Fixtures.state(
                caching: Fixtures.record(.force) { $0.filter = .init(modelRule: .only, models: ["iPhone14,2"]) }),
            input: offline(), result: .dismissed, reason: .modelFiltered),
        // Row 7
        Case(
            name: "7: FORCE ignores \"don't show again\" and a fresh OK",
            state: Fixtures.state(caching: force, armed: false, lastAccept: now - 1),
            input: online(force), result: .show, reason: .force),
        // Row 8
        Case(
            name: "8: LAZY armed, never accepted → SHOW", state: Fixtures.state(caching: lazy), input: online(lazy),
            result: .show, reason: .armed),
        Case(
            name: "8: LAZY after \"don't show again\" → DISMISSED", state: Fixtures.state(caching: lazy, armed: false),
            input: online(lazy), result: .dismissed, reason: .dontShowAgain),
        Case(
            name: "8: LAZY accepted 3599 s ago (3600 s throttle) → DISMISSED",
            state: Fixtures.state(caching: lazy, lastAccept: now - 3_599_000), input: online(lazy), result: .dismissed,
            reason: .throttled),
        Case(
            name: "8: LAZY accepted exactly 3600 s ago → SHOW (≥)",
            state: Fixtures.state(caching: lazy, lastAccept: now - 3_600_000), input: online(lazy), result: .show,
            reason: .armed),
        Case(
            name: "8: the throttle uses the device clock, not serverDate",
            state: Fixtures.state(caching: lazy, lastAccept: now - 3_599_000), input: online(lazy, now: now + 1000),
            result: .show, reason: .armed),
        Case(
            name: "8: dialogDisplayDuration 0 never throttles",
            state: Fixtures.state(caching: Fixtures.record(.lazy) { $0.displayDuration = 0 }, lastAccept: now),
            input: online(Fixtures.record(.lazy) { $0.displayDuration = 0 }), result: .show, reason: .armed),
        Case(
            name: "8: an absurd dialogDisplayDuration throttles instead of overflowing",
            state: Fixtures.state(caching: Fixtures.record(.lazy) { $0.displayDuration = .max }, lastAccept: 1),
            input: online(Fixtures.record(.lazy) { $0.displayDuration = .max }), result: .dismissed, reason: .throttled),
        Case(
            name: "8: a device clock set back 2 h before the last OK still throttles (now − lastOK < duration)",
            state: Fixtures.state(caching: lazy, lastAccept: now + 2 * Fixtures.hour), input: online(lazy),
            result: .dismissed, reason: .throttled),
        Case(
            name: "8: a device clock set back a year before the last OK still throttles",
            state: Fixtures.state(caching: lazy, lastAccept: now + 365 * 24 * Fixtures.hour), input: online(lazy),
            result: .dismissed, reason: .throttled),
        // Row 9
        Case(
            name: "9: INFO armed → SHOW", state: Fixtures.state(caching: info), input: online(info), result: .show,
            reason: .armed),
        Case(
            name: "9: INFO after \"don't show again\" → DISMISSED", state: Fixtures.state(caching: info, armed: false),
            input: online(info), result: .dismissed, reason: .dontShowAgain),
        Case(
            name: "9: INFO accepted 10 minutes ago → DISMISSED",
            state: Fixtures.state(caching: info, lastAccept: now - 10 * Fixtures.minute), input: online(info),
            result: .dismissed, reason: .throttled),
        Case(
            name: "9: INFO with the device clock set back before the last OK → DISMISSED",
            state: Fixtures.state(caching: info, lastAccept: now + 3 * Fixtures.hour), input: online(info),
            result: .dismissed, reason: .throttled),
        // Fresh install
        Case(
            name: "a fresh install is armed by its first online fetch", state: OSAMState(), input: online(lazy),
            result: .show, reason: .armed),
        Case(
            name: "a fresh install offline shows nothing, even for a cached-looking state",
            state: Fixtures.state(caching: nil, armed: true),
            input: offline(), result: .dismissed, reason: .offlineNeverFetched),
    ]

    @Test(arguments: cases) func decides(_ test: Case) {
        let decision = VersionControlPolicy.decide(test.input, state: test.state)
        #expect(decision.result == test.result)
        #expect(decision.reason == test.reason)
        #expect((decision.alert != nil) == (test.result == .show))
        if test.result == .error {
            #expect(decision.state == test.state, "ERROR never changes the state")
            #expect(decision.failure != nil)
        }
        #expect(decision.events.map(\.name) == (test.result == .show ? ["version_control_popup_showed"] : []))
    }

    @Test func showRemembersThePendingAlertAndCachesTheRecord() throws {
        let decision = VersionControlPolicy.decide(Self.online(Self.lazy), state: OSAMState())
        let alert = try #require(decision.alert)
        #expect(decision.state.pendingAlert == alert)
        #expect(decision.state.versionCodeAtFetch == Fixtures.app.versionCode)
        #expect(decision.state.cachedRecord(serverDate: Self.now) == Self.lazy)
        #expect(decision.state.isAlertArmed)
        #expect(decision.state.selectedLanguage == "CA", "checkForSelectedLanguages records the first language")
    }

    @Test func aDismissedOnlineCheckStillCachesTheRecord() {
        let none = Fixtures.record(.none)
        let decision = VersionControlPolicy.decide(Self.online(none), state: OSAMState())
        #expect(decision.result == .dismissed)
        #expect(decision.state.cachedRecord(serverDate: Self.now) == none)
        #expect(decision.state.pendingAlert == nil)
    }

    @Test func theSelectedLanguageIsNotOverwrittenByAFetch() {
        var state = OSAMState()
        state.selectedLanguage = "ES"
        let decision = VersionControlPolicy.decide(Self.online(Self.lazy), state: state)
        #expect(decision.state.selectedLanguage == "ES")
    }

    struct AlertCase: Sendable, CustomTestStringConvertible {
        let record: VersionRecord
        let language: Language
        let expected: VersionAlert
        var testDescription: String { "\(record.mode) in \(language)" }
    }

    static let alerts: [AlertCase] = {
        func alert(
            _ mode: ComparisonMode, _ language: Language, cancel: String?, url: String?, checkbox: Bool, label: String?,
            texts: (String, String, String)
        ) -> VersionAlert {
            var value = VersionAlert(record: Fixtures.record(mode), language: language)
            (value.title, value.message, value.ok) = texts
            value.cancel = cancel
            value.url = url
            value.checkbox = checkbox
            value.checkboxLabel = label
            return value
        }
        return [
            AlertCase(
                record: force, language: .en,
                expected: alert(
                    .force, .en, cancel: nil, url: "https://apps.example/app", checkbox: false, label: nil,
                    texts: ("New version", "Please update", "Download"))),
            AlertCase(
                record: lazy, language: .ca,
                expected: alert(
                    .lazy, .ca, cancel: "Ara no", url: "https://apps.example/app", checkbox: true,
                    label: "No mostrar de nou", texts: ("Nova versió", "Actualitza", "Baixa"))),
            AlertCase(
                record: info, language: .es,
                expected: alert(
                    .info, .es, cancel: nil, url: nil, checkbox: true, label: "No mostrar de nuevo",
                    texts: ("Nueva versión", "Actualiza", "Descarga"))),
            AlertCase(
                record: Fixtures.record(.lazy) {
                    $0.isCheckboxVisible = false; $0.url = ""
                }, language: .en,
                expected: alert(
                    .lazy, .en, cancel: "Not now", url: nil, checkbox: false, label: nil,
                    texts: ("New version", "Please update", "Download"))),
        ]
    }()

    @Test(arguments: alerts) func buildsTheAlertToShow(_ test: AlertCase) throws {
        let input = Input(now: Self.now, fetch: .fetched(test.record), app: Fixtures.app, language: test.language)
        let decision = VersionControlPolicy.decide(input, state: OSAMState())
        #expect(try #require(decision.alert) == test.expected)
    }
}
