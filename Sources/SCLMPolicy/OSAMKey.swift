/// The names under which OSAM state is persisted (OSAM's `CommonPreferences.kt` keys, §3.7).
///
/// Keeping OSAM's names lets state carried over from an app that used OSAMCommon 3.x keep working:
/// "don't show again", the throttle, the rating counters and the topic history. Keys marked *sclm* are
/// this port's additions for what OSAM keeps elsewhere or not at all.
package enum OSAMKey: String, Sendable, CaseIterable {
    // MARK: Version control
    /// Bool, default false: whether LAZY/INFO alerts may show (false after "don't show again").
    case checkboxDontShowAgainActive = "CHECKBOX_DONT_SHOW_AGAIN_ACTIVE"
    /// ms, default 0: when the user last pressed OK on a LAZY/INFO alert (the throttle's start).
    case lastTimeUserClickedOnAcceptButton = "LAST_TIME_USER_CLICKED_ON_ACCEPT_BUTTON"
    /// The installed versionCode at the last successful fetch (0 = never fetched).
    case versionControlVersionCode = "VERSION_CONTROL_VERSION_CODE"
    /// The record's versionCode at the last fetch.
    case versionControlRemoteVersionCode = "VERSION_CONTROL_REMOTE_VERSION_CODE"
    /// The record's versionName at the last fetch.
    case versionControlVersionName = "VERSION_CONTROL_VERSION_NAME"
    /// The cached comparison mode.
    case versionComparisonMode = "VERSION_COMPARISON_MODE"
    /// The cached window start (ms).
    case versionStartDate = "VERSION_START_DATE"
    /// The cached window end (ms).
    case versionEndDate = "VERSION_END_DATE"
    /// Cached alert title (suffix `_CA`, `_ES`, `_EN`).
    case versionTitle = "VERSION_TITLE"
    /// Cached alert message (suffixed).
    case versionMessage = "VERSION_MESSAGE"
    /// Cached OK label (suffixed).
    case versionOK = "VERSION_OK"
    /// Cached Cancel label (suffixed).
    case versionCancel = "VERSION_CANCEL"
    /// The cached update URL.
    case versionURL = "VERSION_URL"
    /// Bool: whether the cached record shows the checkbox.
    case checkboxDontShowAgainVisible = "CHECKBOX_DONT_SHOW_AGAIN_VISIBLE"
    /// Seconds: the cached throttle.
    case dialogDisplayDuration = "DIALOG_DISPLAY_DURATION"
    /// *sclm*: the cached 3.2 OS-version rule code (OSAM's cache of the filter was not found).
    case versionOSVersionComparisonMode = "VERSION_OS_VERSION_COMPARISON_MODE"
    /// *sclm*: the cached 3.2 OS version.
    case versionOSVersion = "VERSION_OS_VERSION"
    /// *sclm*: the cached 3.2 model rule code.
    case versionModelComparisonMode = "VERSION_MODEL_COMPARISON_MODE"
    /// *sclm*: the cached 3.2 model list (JSON array).
    case versionModels = "VERSION_MODELS"
    /// *sclm*: Bool, whether the cached record disarms after any answer (ALVersionControl "optional").
    case versionShowsOnce = "VERSION_SHOWS_ONCE"
    /// *sclm*: the alert last shown and not answered yet (JSON), which `versionControlAnswer` answers.
    case pendingAlert = "SCLM_PENDING_ALERT"

    // MARK: Rating
    /// Calls of `rating` since the last prompt.
    case numApertures = "NUM_APERTURES"
    /// ms: the first call, then the last prompt.
    case lastDatetime = "LAST_DATETIME"
    /// Cached `numAperture` (default 5).
    case ratingNumApertures = "RATING_NUM_APERTURES"
    /// Cached `minutes` (default 2880).
    case ratingDateInterval = "RATING_DATE_INTERVAL"
    /// Cached obsolete rating message (suffix `_CA`, `_ES`, `_EN`).
    case ratingMessage = "RATING_MESSAGE"
    /// Bool: OSAM 1.x's "no, thanks"; only read.
    case dontShowAgain = "DONT_SHOW_AGAIN"

    // MARK: Language and topics
    /// The language the app last reported (`CA`/`ES`/`EN`).
    case selectedLanguage = "SELECTED_LANGUAGE"
    /// The language before the last change.
    case previousLanguage = "PREVIOUS_LANGUAGE"
    /// The device language at the last change, uppercased.
    case displayedLanguage = "DISPLAYED_LANGUAGE"
    /// The versionName at the last `firstTimeOrUpdateEvent` ("" before the first).
    case versionControlVersionNamePrevious = "VERSION_CONTROL_VERSION_NAME_PREVIOUS"
    /// *sclm*: the version and language topics currently subscribed (JSON array).
    case managedTopics = "SCLM_MANAGED_TOPICS"

    /// The persisted name of this key with a language suffix, e.g. `VERSION_TITLE_CA`.
    package func localized(_ language: Language) -> String { "\(rawValue)_\(language.rawValue)" }
}
