/// The version of sclm, shown by `sclm --version` and sent in the HTTP `User-Agent`.
package enum SCLMVersion {
    /// The semantic version of this build.
    package static let current = "0.1.0"
    /// The `User-Agent` product token, e.g. `sclm/0.1.0`.
    package static var userAgent: String { "sclm/\(current)" }
}
