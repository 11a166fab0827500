extension VersionControlPolicy {
    /// Applies the user's answer to the alert awaiting one (``OSAMState/pendingAlert``).
    ///
    /// | alert | OK | Cancel | dismiss |
    /// | --- | --- | --- | --- |
    /// | FORCE | ACCEPTED, open URL, nothing persisted | not offered | DISMISSED |
    /// | LAZY | ACCEPTED, open URL; armed = !checked; last OK = now | CANCELLED, nothing persisted | DISMISSED |
    /// | INFO | **DISMISSED** (quirk Q2 kept); armed = !checked; last OK = now | not offered | DISMISSED |
    ///
    /// `dontShowAgain` counts only when the alert offered the checkbox. An alert from an ALVersionControl
    /// "optional" status disarms after any answer. The pending alert is cleared in every case.
    ///
    /// - Throws: ``AnswerError`` when no alert awaits an answer, or for Cancel on an alert without it.
    package static func answer(
        _ choice: AlertChoice, dontShowAgain: Bool, now: Int64, state: OSAMState
    ) throws(AnswerError) -> AlertAnswer {
        guard let alert = state.pendingAlert else {
            throw AnswerError(message: "no version-control alert is waiting for an answer", isMissingAlert: true)
        }
        var state = state
        state.pendingAlert = nil
        var answer = AlertAnswer(response: .dismissed, openURL: nil, state: state, events: [])
        switch (choice, alert.mode) {
        case (.cancel, let mode) where mode != .lazy:
            throw AnswerError(
                message: "a \(mode) alert has no Cancel button; answer ok or dismiss", isMissingAlert: false)
        case (.ok, .lazy), (.ok, .info):
            answer.state.isAlertArmed = !(dontShowAgain && alert.checkbox)
            answer.state.lastAcceptTime = now
            answer.response = alert.mode == .lazy ? .accepted : .dismissed
            answer.openURL = alert.mode == .lazy ? alert.url : nil
        case (.ok, _):
            answer.response = .accepted
            answer.openURL = alert.url
        case (.cancel, _):
            answer.response = .cancelled
        case (.dismiss, _):
            answer.response = .dismissed
        }
        if alert.showsOnce { answer.state.isAlertArmed = false }
        switch choice {
        case .ok: answer.events = [.versionControl(.accepted, mode: alert.mode)]
        case .cancel: answer.events = [.versionControl(.cancelled, mode: alert.mode)]
        case .dismiss: break
        }
        return answer
    }
}
