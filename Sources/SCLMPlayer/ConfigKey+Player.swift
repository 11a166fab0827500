import SCLMCore

extension ConfigKey where Value == Int {
    /// Seconds between two writes of the player's Prometheus textfile (``PlayerStatus``).
    package static let playMetricsInterval = ConfigKey(
        "play.metricsInterval",
        help:
            "Seconds between two writes of `sclm play --presentation`'s Prometheus textfile, sclm-play.prom beside"
            + " metrics.textfile (docs/fleet.md).",
        default: 5, range: 1...3600)
}
