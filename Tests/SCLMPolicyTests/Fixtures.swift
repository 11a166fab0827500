import SCLMPolicy

/// Shared inputs of the policy tests: one instant, one app, one record per mode.
enum Fixtures {
    /// An arbitrary device/server instant (ms); tests only use offsets from it.
    static let now: Int64 = 1_750_000_000_000
    static let hour: Int64 = 3_600_000
    static let minute: Int64 = 60_000

    static let app = InstalledApp(
        packageName: "cat.bcn.commonmodule", versionCode: 2021050000, versionName: "1.0.0", osVersion: "14",
        model: "SM-A536B")

    /// A record of `mode` in its window around ``now``, with a checkbox and the default 3600 s throttle.
    static func record(_ mode: ComparisonMode, serverDate: Int64 = now) -> VersionRecord {
        VersionRecord(
            versionCode: 2021060000, versionName: "1.1.0", startDate: now - 24 * hour, endDate: now + 24 * hour,
            serverDate: serverDate, mode: mode,
            title: LocalizedText(ca: "Nova versió", es: "Nueva versión", en: "New version"),
            message: LocalizedText(ca: "Actualitza", es: "Actualiza", en: "Please update"),
            ok: LocalizedText(ca: "Baixa", es: "Descarga", en: "Download"),
            cancel: LocalizedText(ca: "Ara no", es: "Ahora no", en: "Not now"),
            url: "https://apps.example/app", isCheckboxVisible: true, displayDuration: 3600)
    }

    /// `record` with one change applied.
    static func record(_ mode: ComparisonMode, _ change: (inout VersionRecord) -> Void) -> VersionRecord {
        var value = record(mode)
        change(&value)
        return value
    }

    /// The state after fetching `record` for ``app`` earlier, with the gate as given.
    static func state(
        caching record: VersionRecord?, armed: Bool = true, lastAccept: Int64 = 0,
        installedCode: Int64 = app.versionCode
    ) -> OSAMState {
        var state = OSAMState()
        if let record { state.cache(record, installedVersionCode: installedCode) }
        state.isAlertArmed = armed
        state.lastAcceptTime = lastAccept
        return state
    }
}
