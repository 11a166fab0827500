import Foundation
import SCLMArchive
import SCLMCore

/// The settings of `sclm sync` (the content API, parallel transfers, the content policy, a site cache, the
/// metrics file), declared beside the sync; `SCLMCommands`' `SettingsCatalog` registers them with every other
/// feature's.
extension ConfigKey where Value == URL {
    /// The StoryCLM content API base URL.
    package static let apiURL = ConfigKey(
        "api.url", help: "StoryCLM content API base URL.", default: "https://api.storyclm.com",
        environment: "SCLM_API_URL")
}

extension ConfigKey where Value == BlobProxy {
    /// A site cache in front of the blob hosts: `https://blobhost/path?sig` is fetched as `URL/blobhost/path?sig`
    /// (an http(s) URL without a query or fragment; its fallback comes from the two settings below).
    package static let syncBlobProxy = ConfigKey(
        "sync.blobProxy",
        help:
            "Site cache for package and media downloads: https://blobhost/path?sig is fetched as URL/blobhost/path?sig"
            + " with an X-SCLM-ETag header (see contrib/nginx/sclm-cache.conf and docs/fleet.md).",
        default: nil, environment: nil, format: .httpURL
    ) { text in
        guard let proxy = URL(string: text).flatMap({ BlobProxy(base: $0) }) else {
            return .failure(
                ConfigRefusal(
                    reason: "must be an http(s) URL without a query, e.g. http://cache.site:8080, got '\(text)'"))
        }
        return .success(proxy)
    }
}

extension ConfigKey where Value == Int {
    /// Parallel package transfers of `sclm sync`.
    package static let syncJobs = ConfigKey(
        "sync.jobs", help: "Parallel package transfers of `sclm sync`.", default: 4, range: 1...64)
    /// The longest random pause before that fallback, so a whole site does not hit its uplink at once.
    package static let syncBlobProxyFallbackDelay = ConfigKey(
        "sync.blobProxyFallbackDelay",
        help: "Longest random pause, in seconds, before fetching from the origin when the site cache fails (0: none).",
        default: 30, range: 0...3600)
    /// The disk space a sync leaves free besides what it downloads and unpacks, in MiB (unset: scaled to the
    /// package, ``DiskReserve``).
    package static let syncDiskReserve = ConfigKey(
        "sync.diskReserve",
        help:
            "Free disk space, in MiB, a sync leaves besides what it downloads and unpacks (unset: the package's"
            + " size, at least 4 and at most 64 MiB).",
        range: 0...1_048_576)
}

extension ConfigKey where Value == ContentPolicy {
    /// What `sclm sync` does with a package that has content errors (safety errors always refuse it).
    package static let syncContentPolicy = ConfigKey(
        "sync.contentPolicy",
        help: "What `sclm sync` does with a package that has content errors: install (keep the findings) or refuse.",
        default: .install)
}

extension ConfigKey where Value == Bool {
    /// Whether a sync may fetch blobs from their origin directly when the site cache cannot be reached.
    package static let syncBlobProxyFallback = ConfigKey(
        "sync.blobProxyFallback",
        help:
            "When the sync.blobProxy cache cannot be reached (no connection, time-out, its own 502/504), fetch from"
            + " the origin directly (false: fail instead).",
        default: true)
}

extension ConfigKey where Value == String {
    /// The Prometheus textfile written after every sync, for node_exporter's textfile collector.
    package static let metricsTextfile = ConfigKey(
        "metrics.textfile",
        help:
            "Prometheus text file (*.prom) written after every sync for node_exporter's textfile collector"
            + " (unset: none; docs/fleet.md).")
}
