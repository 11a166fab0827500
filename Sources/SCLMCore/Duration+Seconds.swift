extension Duration {
    /// The duration in seconds as a floating-point number (for JSON output and `Date` arithmetic).
    package var inSeconds: Double {
        Double(components.seconds) + Double(components.attoseconds) / 1e18
    }
}
