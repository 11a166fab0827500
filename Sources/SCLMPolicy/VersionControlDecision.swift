/// What `versionControl` answers: show an alert, nothing to show, or an error.
package enum VersionControlResult: String, Sendable, Codable {
    case show = "SHOW"
    case dismissed = "DISMISSED"
    case error = "ERROR"
}

/// Why a version-control check ended as it did; the raw value is the stable `reason` of `--json` output.
package enum VersionControlReason: String, Sendable, Codable, CaseIterable {
    /// SHOW: a FORCE record in its window (FORCE ignores the throttle and "don't show again").
    case force
    /// SHOW: a LAZY or INFO record whose gate is open (armed and not throttled).
    case armed
    /// DISMISSED: offline, and no record was ever fetched.
    case offlineNeverFetched = "offline-never-fetched"
    /// DISMISSED: offline, and the cached record was fetched for another installed build.
    case offlineOtherBuild = "offline-other-build"
    /// DISMISSED: now is outside `[startDate, endDate]`.
    case outsideWindow = "outside-window"
    /// DISMISSED: the record's mode is NONE.
    case modeNone = "mode-none"
    /// DISMISSED: the record's OS-version rule excludes this device.
    case osVersionFiltered = "os-version-filtered"
    /// DISMISSED: the record's model rule excludes this device.
    case modelFiltered = "model-filtered"
    /// DISMISSED: the user chose "don't show again" (LAZY/INFO).
    case dontShowAgain = "dont-show-again"
    /// DISMISSED: the user pressed OK less than `dialogDisplayDuration` seconds ago (LAZY/INFO).
    case throttled
    /// ERROR: an alert is still waiting for its answer.
    case alertPending = "alert-pending"
    /// ERROR: the backend could not be reached or answered with something unusable.
    case fetchFailed = "fetch-failed"

    /// One sentence for people.
    package var explanation: String {
        switch self {
        case .force: "a FORCE update is required"
        case .armed: "an update alert is due"
        case .offlineNeverFetched: "offline, and no version record was ever fetched"
        case .offlineOtherBuild: "offline, and the cached record belongs to another installed build"
        case .outsideWindow: "the record's date window does not include now"
        case .modeNone: "the record's mode is NONE"
        case .osVersionFiltered: "the record excludes this OS version"
        case .modelFiltered: "the record excludes this device model"
        case .dontShowAgain: "the user chose \"don't show again\""
        case .throttled: "the user accepted this alert less than dialogDisplayDuration ago"
        case .alertPending: "an alert is still waiting for its answer"
        case .fetchFailed: "the version record could not be fetched"
        }
    }
}

/// The outcome of ``VersionControlPolicy/decide(_:state:)`` and the state to persist.
package struct VersionControlDecision: Sendable, Equatable {
    /// SHOW, DISMISSED or ERROR.
    package var result: VersionControlResult
    /// The alert to show when ``result`` is SHOW.
    package var alert: VersionAlert?
    /// Why.
    package var reason: VersionControlReason
    /// What failed, for ERROR.
    package var failure: String?
    /// The state after the check (re-armed, cached record, pending alert).
    package var state: OSAMState
    /// Analytics events to log.
    package var events: [OSAMEvent]
}

/// How the user answered an alert.
package enum AlertChoice: String, Sendable, Codable, CaseIterable {
    /// OK (opens the URL in FORCE and LAZY).
    case ok
    /// Cancel (LAZY only).
    case cancel
    /// Closed without a button (back, tap outside, host closed it).
    case dismiss
}

/// OSAM's `VersionControlResponse`.
package enum VersionControlResponse: String, Sendable, Codable {
    case accepted = "ACCEPTED"
    case dismissed = "DISMISSED"
    case cancelled = "CANCELLED"
    case error = "ERROR"
}

/// The outcome of ``VersionControlPolicy/answer(_:dontShowAgain:now:state:)``.
package struct AlertAnswer: Sendable, Equatable {
    /// ACCEPTED, CANCELLED or DISMISSED.
    package var response: VersionControlResponse
    /// The URL to open now (OK on FORCE or LAZY with a URL).
    package var openURL: String?
    /// The state to persist.
    package var state: OSAMState
    /// Analytics events to log.
    package var events: [OSAMEvent]
}

/// An answer that cannot apply: no alert awaits one, or the alert has no such button.
package struct AnswerError: Error, Sendable, Equatable, CustomStringConvertible {
    /// What is wrong.
    package let message: String
    /// Whether the problem is that no alert awaits an answer (rather than a bad choice).
    package let isMissingAlert: Bool

    package var description: String { message }
}
