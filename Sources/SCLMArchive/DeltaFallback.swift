/// Why a delta update gives way to a full download: the reason, one sentence for `-v` and `--json`.
package struct DeltaFallback: Error, Equatable, Sendable {
    /// What made the delta path unusable (`the server ignores Range`, `212 MiB of 330 MiB changed`).
    package let reason: String

    /// A fallback for `reason`.
    package init(_ reason: String) {
        self.reason = reason
    }
}
