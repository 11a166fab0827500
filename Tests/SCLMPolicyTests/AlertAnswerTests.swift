import SCLMPolicy
import SCLMTestSupport
import Testing

/// §3.4: what each button does to the response, the URL and the persisted state.
@Suite(.tags(.small)) struct AlertAnswerTests {
    struct Case: Sendable, CustomTestStringConvertible {
        let name: String
        let record: VersionRecord
        let choice: AlertChoice
        let dontShowAgain: Bool
        let response: VersionControlResponse
        let opensURL: Bool
        /// Expected (armed, lastAccept) after the answer; `nil` = unchanged.
        let persisted: (armed: Bool, lastAccept: Int64)?
        let event: String?
        var testDescription: String { name }
    }

    static let answeredAt = Fixtures.now + 5000
    static let lazyOnce = Fixtures.record(.lazy) {
        $0.showsOnce = true; $0.isCheckboxVisible = false
    }

    static let cases: [Case] = [
        Case(
            name: "FORCE OK → ACCEPTED, opens the URL, persists nothing", record: Fixtures.record(.force), choice: .ok,
            dontShowAgain: false, response: .accepted, opensURL: true, persisted: nil,
            event: "version_control_popup_accepted"),
        Case(
            name: "FORCE OK ignores don't-show-again", record: Fixtures.record(.force), choice: .ok,
            dontShowAgain: true, response: .accepted, opensURL: true, persisted: nil,
            event: "version_control_popup_accepted"),
        Case(
            name: "FORCE dismissed → DISMISSED, persists nothing", record: Fixtures.record(.force), choice: .dismiss,
            dontShowAgain: false, response: .dismissed, opensURL: false, persisted: nil, event: nil),
        Case(
            name: "LAZY OK → ACCEPTED, opens the URL, starts the throttle", record: Fixtures.record(.lazy), choice: .ok,
            dontShowAgain: false, response: .accepted, opensURL: true, persisted: (true, answeredAt),
            event: "version_control_popup_accepted"),
        Case(
            name: "LAZY OK with don't-show-again → disarmed", record: Fixtures.record(.lazy), choice: .ok,
            dontShowAgain: true, response: .accepted, opensURL: true, persisted: (false, answeredAt),
            event: "version_control_popup_accepted"),
        Case(
            name: "LAZY OK with don't-show-again but no checkbox offered → stays armed",
            record: Fixtures.record(.lazy) { $0.isCheckboxVisible = false }, choice: .ok,
            dontShowAgain: true, response: .accepted, opensURL: true, persisted: (true, answeredAt),
            event: "version_control_popup_accepted"),
        Case(
            name: "Q4 kept: LAZY Cancel → CANCELLED, persists nothing even when checked",
            record: Fixtures.record(.lazy), choice: .cancel,
            dontShowAgain: true, response: .cancelled, opensURL: false, persisted: nil,
            event: "version_control_popup_cancelled"),
        Case(
            name: "LAZY dismissed → DISMISSED, persists nothing", record: Fixtures.record(.lazy), choice: .dismiss,
            dontShowAgain: true, response: .dismissed, opensURL: false, persisted: nil, event: nil),
        Case(
            name: "Q2 kept: INFO OK → DISMISSED, opens nothing, starts the throttle", record: Fixtures.record(.info),
            choice: .ok,
            dontShowAgain: false, response: .dismissed, opensURL: false, persisted: (true, answeredAt),
            event: "version_control_popup_accepted"),
        Case(
            name: "INFO OK with don't-show-again → disarmed", record: Fixtures.record(.info), choice: .ok,
            dontShowAgain: true, response: .dismissed, opensURL: false, persisted: (false, answeredAt),
            event: "version_control_popup_accepted"),
        Case(
            name: "INFO dismissed → DISMISSED, persists nothing", record: Fixtures.record(.info), choice: .dismiss,
            dontShowAgain: false, response: .dismissed, opensURL: false, persisted: nil, event: nil),
        Case(
            name: "ALVersionControl optional: Cancel disarms (shown once)", record: lazyOnce, choice: .cancel,
            dontShowAgain: false, response: .cancelled, opensURL: false, persisted: (false, 0),
            event: "version_control_popup_cancelled"),
        Case(
            name: "ALVersionControl optional: OK disarms", record: lazyOnce, choice: .ok,
            dontShowAgain: false, response: .accepted, opensURL: true, persisted: (false, answeredAt),
            event: "version_control_popup_accepted"),
    ]

    @Test(arguments: cases) func appliesTheAnswer(_ test: Case) throws {
        let shown = VersionControlPolicy.decide(
            .init(now: Fixtures.now, fetch: .fetched(test.record), app: Fixtures.app, language: .en), state: OSAMState()
        )
        #expect(shown.result == .show)
        let answer = try VersionControlPolicy.answer(
            test.choice, dontShowAgain: test.dontShowAgain, now: Self.answeredAt, state: shown.state)
        #expect(answer.response == test.response)
        #expect(answer.openURL == (test.opensURL ? test.record.url : nil))
        #expect(answer.state.pendingAlert == nil)
        #expect(answer.state.isAlertArmed == (test.persisted?.armed ?? shown.state.isAlertArmed))
        #expect(answer.state.lastAcceptTime == (test.persisted?.lastAccept ?? shown.state.lastAcceptTime))
        #expect(answer.events.map(\.name) == [test.event].compactMap { $0 })
        var cleared = shown.state
        cleared.pendingAlert = nil
        if test.persisted == nil { #expect(answer.state == cleared, "nothing but the pending alert changes") }
    }

    @Test(arguments: [ComparisonMode.force, .info]) func cancelIsRefusedWithoutACancelButton(_ mode: ComparisonMode)
        throws
    {
        let shown = VersionControlPolicy.decide(
            .init(now: Fixtures.now, fetch: .fetched(Fixtures.record(mode)), app: Fixtures.app, language: .en),
            state: OSAMState())
        let error = try #require(throws: AnswerError.self) {
            try VersionControlPolicy.answer(.cancel, dontShowAgain: false, now: Fixtures.now, state: shown.state)
        }
        #expect(!error.isMissingAlert)
        #expect(error.message.contains("no Cancel button"))
    }

    @Test func answeringWithoutAPendingAlertFails() throws {
        let error = try #require(throws: AnswerError.self) {
            try VersionControlPolicy.answer(.ok, dontShowAgain: false, now: Fixtures.now, state: OSAMState())
        }
        #expect(error.isMissingAlert)
    }

    @Test func anAlertCanBeAnsweredOnlyOnce() throws {
        let shown = VersionControlPolicy.decide(
            .init(now: Fixtures.now, fetch: .fetched(Fixtures.record(.lazy)), app: Fixtures.app, language: .en),
            state: OSAMState())
        let first = try VersionControlPolicy.answer(.ok, dontShowAgain: false, now: Fixtures.now, state: shown.state)
        #expect(throws: AnswerError.self) {
            try VersionControlPolicy.answer(.ok, dontShowAgain: false, now: Fixtures.now, state: first.state)
        }
    }
}
