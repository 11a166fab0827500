/// OSAM's version-control decision (§3.8/§3.9) as pure functions of record, state, app, device and clock.
///
/// Behaviour kept from OSAM 3.0.1 + 3.2: the installed version is compared on the server; the window
/// `[startDate, endDate]` is inclusive and uses `serverDate` online and the device clock offline; the
/// offline path evaluates the cached record only for the build it was fetched for; FORCE ignores the
/// throttle and "don't show again"; LAZY and INFO need the alert armed and `dialogDisplayDuration` passed
/// since the last OK; any admin change to the record re-arms; the 3.2 OS-version and model filters apply
/// to every mode. Deliberate differences are listed in docs/osam.md.
package enum VersionControlPolicy {
    /// Everything a check depends on besides the persisted state.
    package struct Input: Sendable, Equatable {
        /// The device clock, ms since the epoch.
        package var now: Int64
        /// The record fetched for this check (or why there is none).
        package var fetch: FetchResult<VersionRecord>
        /// The installed app and device.
        package var app: InstalledApp
        /// The language of the alert texts.
        package var language: Language
        /// Whether an earlier alert of this host still waits for its answer.
        package var isAlertShowing: Bool

        /// Creates the input of one check.
        package init(
            now: Int64, fetch: FetchResult<VersionRecord>, app: InstalledApp, language: Language,
            isAlertShowing: Bool = false
        ) {
            self.now = now
            self.fetch = fetch
            self.app = app
            self.language = language
            self.isAlertShowing = isAlertShowing
        }
    }

    /// Decides whether to show an alert, and returns the state to persist.
    ///
    /// Rows of §3.8 in order: an alert already showing → ERROR; a failed fetch → ERROR with the state
    /// unchanged; offline without a record fetched for this build → DISMISSED; outside the window, mode NONE,
    /// filtered out → DISMISSED; FORCE → SHOW; LAZY/INFO → SHOW when armed and not throttled. A successful
    /// fetch first re-arms when the record changed, then caches it (even when the result is DISMISSED).
    package static func decide(_ input: Input, state: OSAMState) -> VersionControlDecision {
        var state = state
        if input.isAlertShowing { return .init(state: state, error: .alertPending) }
        let record: VersionRecord
        switch input.fetch {
        case .failed(let failure):
            return .init(state: state, error: .fetchFailed, failure: failure)
        case .offline:
            guard state.versionCodeAtFetch != 0, let cached = state.cachedRecord(serverDate: input.now) else {
                return .init(state: state, dismissed: .offlineNeverFetched)
            }
            guard state.versionCodeAtFetch == input.app.versionCode else {
                return .init(state: state, dismissed: .offlineOtherBuild)
            }
            record = cached
        case .fetched(let remote):
            absorb(remote, installedVersionCode: input.app.versionCode, language: input.language, into: &state)
            record = remote
        }
        if let reason = dismissal(of: record, app: input.app, state: state, now: input.now) {
            return .init(state: state, dismissed: reason)
        }
        let alert = VersionAlert(record: record, language: input.language)
        state.pendingAlert = alert
        return VersionControlDecision(
            result: .show, alert: alert, reason: record.mode == .force ? .force : .armed, failure: nil, state: state,
            events: [.versionControl(.showed, mode: record.mode)])
    }

    /// Re-arms when `remote` differs from the cached record (or none is cached), then caches it; also
    /// records the first language seen, as OSAM's `checkForSelectedLanguages` does.
    static func absorb(
        _ remote: VersionRecord, installedVersionCode: Int64, language: Language, into state: inout OSAMState
    ) {
        let cached = state.cachedRecord(serverDate: remote.serverDate)
        if cached.map({ $0.hasAdminChanges(comparedTo: remote) }) ?? true {
            state.isAlertArmed = true
            state.lastAcceptTime = 0
        }
        state.cache(remote, installedVersionCode: installedVersionCode)
        if state.selectedLanguage.isEmpty { state.selectedLanguage = language.rawValue }
    }

    /// The reason not to show `record`, or `nil` to show it.
    static func dismissal(of record: VersionRecord, app: InstalledApp, state: OSAMState, now: Int64)
        -> VersionControlReason?
    {
        guard record.isInTimeWindow else { return .outsideWindow }
        guard record.mode != .none else { return .modeNone }
        switch record.filter.rejection(osVersion: app.osVersion, model: app.model) {
        case .osVersion?: return .osVersionFiltered
        case .model?: return .modelFiltered
        case nil: break
        }
        guard record.mode != .force else { return nil }
        guard state.isAlertArmed else { return .dontShowAgain }
        let throttled = Clock.isWaiting(
            since: state.lastAcceptTime, now: now, length: record.displayDuration, unit: 1000)
        return throttled ? .throttled : nil
    }
}

extension VersionControlDecision {
    init(state: OSAMState, dismissed reason: VersionControlReason) {
        self.init(result: .dismissed, alert: nil, reason: reason, failure: nil, state: state, events: [])
    }

    init(state: OSAMState, error reason: VersionControlReason, failure: String? = nil) {
        self.init(
            result: .error, alert: nil, reason: reason, failure: failure ?? reason.explanation, state: state, events: []
        )
    }
}

/// The waiting rule shared by the version-control throttle and the rating wait.
enum Clock {
    /// Whether a wait of `length` × `unit` ms that started at `start` still holds at `now`: OSAM's
    /// `now − start < length`.
    ///
    /// A device clock now *before* `start` (set back) is still waiting, so a clock moved backwards never
    /// brings an alert or a prompt back early; a wait too long to represent always holds.
    static func isWaiting(since start: Int64, now: Int64, length: Int64, unit: Int64) -> Bool {
        let wait = length.multipliedReportingOverflow(by: unit)
        if wait.overflow { return true }
        let elapsed = now.subtractingReportingOverflow(start)
        if elapsed.overflow { return now < start }
        return elapsed.partialValue < wait.partialValue
    }
}
