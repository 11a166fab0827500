/// Keys of the feature areas (bridge, analytics, OSAM, app identity), kept apart from the core keys.
extension ConfigKey {
    /// Name of the host application, reported by `getAppInfo`, OSAM and analytics.
    public static let appName = ConfigKey("app.name", help: "Application name reported to content and analytics.", default: "sclm")
    /// Version of the host application.
    public static let appVersion = ConfigKey(
        "app.version", help: "Application version reported to content and analytics.", default: SCLMVersion.current)

    static let extensionKeys: [ConfigKey] = [appName, appVersion]
}
