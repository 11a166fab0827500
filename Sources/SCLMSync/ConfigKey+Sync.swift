import SCLMCore

/// The settings of `sclm sync` (the content API, parallel transfers, the content policy, a site cache, the
/// metrics file), declared beside the sync; `SCLMCommands`' `SettingsCatalog` registers them with every other
/// feature's.
extension ConfigKey {
    /// The StoryCLM content API base URL.
    package static let apiURL = ConfigKey(
        "api.url", help: "StoryCLM content API base URL.", default: "https://api.storyclm.com",
        environment: "SCLM_API_URL", format: .httpURL)
    /// Parallel package transfers of `sclm sync`.
    package static let syncJobs = ConfigKey(
        "sync.jobs", help: "Parallel package transfers of `sclm sync`.", default: "4",
        format: .wholeNumber(atLeast: 1, atMost: 64))
    /// What `sclm sync` does with a package that has content errors (safety errors always refuse it).
    package static let syncContentPolicy = ConfigKey(
        "sync.contentPolicy",
        help: "What `sclm sync` does with a package that has content errors: install (keep the findings) or refuse.",
        default: "install", values: ["install", "refuse"])
    /// A site cache in front of the blob hosts: `https://blobhost/path?sig` is fetched as `URL/blobhost/path?sig`.
    package static let syncBlobProxy = ConfigKey(
        "sync.blobProxy",
        help:
            "Site cache for package and media downloads: https://blobhost/path?sig is fetched as URL/blobhost/path?sig"
            + " with an X-SCLM-ETag header (see contrib/nginx/sclm-cache.conf and docs/fleet.md).",
        format: .httpURL)
    /// Whether a sync may fetch blobs from their origin directly when the site cache cannot be reached.
    package static let syncBlobProxyFallback = ConfigKey(
        "sync.blobProxyFallback",
        help:
            "When the sync.blobProxy cache cannot be reached (no connection, time-out, its own 502/504), fetch from"
            + " the origin directly (false: fail instead).",
        default: "true", values: ["true", "false"])
    /// The longest random pause before that fallback, so a whole site does not hit its uplink at once.
    package static let syncBlobProxyFallbackDelay = ConfigKey(
        "sync.blobProxyFallbackDelay",
        help: "Longest random pause, in seconds, before fetching from the origin when the site cache fails (0: none).",
        default: "30", format: .wholeNumber(atLeast: 0, atMost: 3600))
    /// The disk space a sync leaves free besides what it downloads and unpacks, in MiB (unset: scaled to the
    /// package, ``DiskReserve``).
    package static let syncDiskReserve = ConfigKey(
        "sync.diskReserve",
        help:
            "Free disk space, in MiB, a sync leaves besides what it downloads and unpacks (unset: the package's"
            + " size, at least 4 and at most 64 MiB).",
        format: .wholeNumber(atLeast: 0, atMost: 1_048_576))
    /// The Prometheus textfile written after every sync, for node_exporter's textfile collector.
    package static let metricsTextfile = ConfigKey(
        "metrics.textfile",
        help:
            "Prometheus text file (*.prom) written after every sync for node_exporter's textfile collector"
            + " (unset: none; docs/fleet.md).")
}
