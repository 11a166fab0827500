/// The version of sclm, shown by `sclm --version` and sent in the HTTP `User-Agent`.
public enum SCLMVersion {
    /// The semantic version of this build.
    public static let current = "0.1.0"
    /// The `User-Agent` product token, e.g. `sclm/0.1.0`.
    public static var userAgent: String { "sclm/\(current)" }
}
