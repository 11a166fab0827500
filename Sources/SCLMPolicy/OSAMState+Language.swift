extension OSAMState {
    /// The language the app last reported (`SELECTED_LANGUAGE`, "" before any).
    package var selectedLanguage: String {
        get { string(.selectedLanguage) }
        set { self[.selectedLanguage] = newValue }
    }

    /// The language before the last change (`PREVIOUS_LANGUAGE`).
    package var previousLanguage: String {
        get { string(.previousLanguage) }
        set { self[.previousLanguage] = newValue }
    }

    /// The device language at the last change, uppercased (`DISPLAYED_LANGUAGE`).
    package var displayedLanguage: String {
        get { string(.displayedLanguage) }
        set { self[.displayedLanguage] = newValue }
    }

    /// The versionName at the last `firstTimeOrUpdateEvent` (`VERSION_CONTROL_VERSION_NAME_PREVIOUS`, "" before any).
    package var previousVersionName: String {
        get { string(.versionControlVersionNamePrevious) }
        set { self[.versionControlVersionNamePrevious] = newValue }
    }

    /// The version and language topics currently subscribed, or `nil` when sclm never recorded them.
    package var managedTopics: [String]? {
        get { decoded(.managedTopics, as: [String].self) }
        set { setEncoded(.managedTopics, newValue) }
    }
}
