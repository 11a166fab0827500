extension OSAMState {
    /// Whether LAZY and INFO alerts may show (`CHECKBOX_DONT_SHOW_AGAIN_ACTIVE`; false = "don't show again").
    package var isAlertArmed: Bool {
        get { bool(.checkboxDontShowAgainActive, default: false) }
        set { set(.checkboxDontShowAgainActive, newValue) }
    }

    /// When the user last pressed OK on a LAZY or INFO alert, in ms (0 = never since the last re-arm).
    package var lastAcceptTime: Int64 {
        get { int(.lastTimeUserClickedOnAcceptButton, default: 0) }
        set { set(.lastTimeUserClickedOnAcceptButton, newValue) }
    }

    /// The installed versionCode at the last successful fetch (0 = never fetched).
    package var versionCodeAtFetch: Int64 {
        int(.versionControlVersionCode, default: 0)
    }

    /// The alert shown last and not answered yet.
    package var pendingAlert: VersionAlert? {
        get { decoded(.pendingAlert, as: VersionAlert.self) }
        set { setEncoded(.pendingAlert, newValue) }
    }

    /// The record stored by the last successful fetch, with `serverDate`, or `nil` when none was stored.
    package func cachedRecord(serverDate: Int64) -> VersionRecord? {
        guard let modeName = self[.versionComparisonMode], let mode = ComparisonMode(rawValue: modeName) else {
            return nil
        }
        return VersionRecord(
            versionCode: int(.versionControlRemoteVersionCode, default: 0),
            versionName: string(.versionControlVersionName),
            startDate: int(.versionStartDate, default: 0),
            endDate: int(.versionEndDate, default: .max),
            serverDate: serverDate,
            mode: mode,
            title: text(.versionTitle, default: AlertTexts.defaultTitle),
            message: text(.versionMessage, default: AlertTexts.defaultMessage),
            ok: text(.versionOK, default: AlertTexts.defaultOK),
            cancel: text(.versionCancel, default: AlertTexts.defaultCancel),
            url: string(.versionURL),
            isCheckboxVisible: bool(.checkboxDontShowAgainVisible, default: false),
            displayDuration: int(.dialogDisplayDuration, default: 0),
            filter: DeviceFilter(
                osRule: .init(code: Int(clamping: int(.versionOSVersionComparisonMode, default: -1))),
                osVersion: string(.versionOSVersion),
                modelRule: .init(code: Int(clamping: int(.versionModelComparisonMode, default: 0))),
                models: decoded(.versionModels, as: [String].self) ?? []),
            showsOnce: bool(.versionShowsOnce, default: false))
    }

    /// Stores every field of `record` and the installed versionCode it was fetched for.
    package mutating func cache(_ record: VersionRecord, installedVersionCode: Int64) {
        set(.versionControlVersionCode, installedVersionCode)
        set(.versionControlRemoteVersionCode, record.versionCode)
        self[.versionControlVersionName] = record.versionName
        self[.versionComparisonMode] = record.mode.rawValue
        set(.versionStartDate, record.startDate)
        set(.versionEndDate, record.endDate)
        set(.versionTitle, record.title)
        set(.versionMessage, record.message)
        set(.versionOK, record.ok)
        set(.versionCancel, record.cancel)
        self[.versionURL] = record.url
        set(.checkboxDontShowAgainVisible, record.isCheckboxVisible)
        set(.dialogDisplayDuration, record.displayDuration)
        set(.versionOSVersionComparisonMode, Int64(record.filter.osRule.rawValue))
        self[.versionOSVersion] = record.filter.osVersion
        set(.versionModelComparisonMode, Int64(record.filter.modelRule.rawValue))
        setEncoded(.versionModels, record.filter.models)
        set(.versionShowsOnce, record.showsOnce)
    }
}
