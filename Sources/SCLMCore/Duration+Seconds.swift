import Foundation

extension Duration {
    /// The duration in seconds as a floating-point number (for JSON output and `Date` arithmetic).
    package var inSeconds: Double {
        Double(components.seconds) + Double(components.attoseconds) / 1e18
    }
}

extension Duration {
    /// The duration as a person reads it in seconds: `3` for whole seconds, else `2.5` (one decimal).
    package var secondsText: String {
        let seconds = inSeconds
        return seconds == seconds.rounded() ? String(Int64(seconds)) : String(format: "%.1f", seconds)
    }
}
