/// One version-control record as the client uses it: the backend's `data` object with defaults applied.
///
/// Fields docs/osam.md calls optional carry its defaults: `startDate` 0, `endDate` `Int64.max`,
/// `checkBoxDontShowAgain` true, `dialogDisplayDuration` 3600 s, and sclm's own labels for a missing
/// `ok`/`cancel`. An empty ``url`` means there is nothing to open.
package struct VersionRecord: Sendable, Equatable, Codable {
    /// The version the record targets; only used to notice that the record changed.
    package var versionCode: Int64
    /// The version name of the record; only used to notice that the record changed.
    package var versionName: String
    /// First instant (ms since the epoch, inclusive) at which the alert may show.
    package var startDate: Int64
    /// Last instant (ms, inclusive) at which the alert may show.
    package var endDate: Int64
    /// The server's "now" in ms, compared with the window when online.
    package var serverDate: Int64
    /// What to show.
    package var mode: ComparisonMode
    /// Alert title.
    package var title: LocalizedText
    /// Alert message.
    package var message: LocalizedText
    /// OK button label.
    package var ok: LocalizedText
    /// Cancel button label (LAZY only).
    package var cancel: LocalizedText
    /// The URL OK opens in FORCE and LAZY; empty for none.
    package var url: String
    /// Whether LAZY and INFO alerts offer the "don't show again" checkbox.
    package var isCheckboxVisible: Bool
    /// Seconds after an OK during which LAZY and INFO alerts stay away.
    package var displayDuration: Int64
    /// The 3.2 OS-version and model filter.
    package var filter: DeviceFilter
    /// Whether any answer disarms the alert until the record changes (ALVersionControl's "optional" status).
    package var showsOnce: Bool

    /// Creates a record; the defaults are the README's.
    package init(
        versionCode: Int64 = 0, versionName: String = "", startDate: Int64 = 0, endDate: Int64 = .max,
        serverDate: Int64, mode: ComparisonMode, title: LocalizedText, message: LocalizedText,
        ok: LocalizedText = AlertTexts.defaultOK, cancel: LocalizedText = AlertTexts.defaultCancel, url: String = "",
        isCheckboxVisible: Bool = true, displayDuration: Int64 = 3600, filter: DeviceFilter = .none,
        showsOnce: Bool = false
    ) {
        self.versionCode = versionCode
        self.versionName = versionName
        self.startDate = startDate
        self.endDate = endDate
        self.serverDate = serverDate
        self.mode = mode
        self.title = title
        self.message = message
        self.ok = ok
        self.cancel = cancel
        self.url = url
        self.isCheckboxVisible = isCheckboxVisible
        self.displayDuration = displayDuration
        self.filter = filter
        self.showsOnce = showsOnce
    }

    /// Whether ``serverDate`` lies in `[startDate, endDate]`, both ends included.
    package var isInTimeWindow: Bool { startDate <= serverDate && serverDate <= endDate }

    /// Whether `other` differs from this record in anything an admin edits (every field but ``serverDate``).
    ///
    /// A difference re-arms "don't show again" and the throttle (§3.3, quirk Q5).
    package func hasAdminChanges(comparedTo other: VersionRecord) -> Bool {
        var normalized = other
        normalized.serverDate = serverDate
        return normalized != self
    }
}
