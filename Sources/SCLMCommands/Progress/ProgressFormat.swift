import Foundation
import SCLMArchive
import SCLMSync

/// How sizes, rates, durations and bars look in sclm's progress output (pure; unit-tested).
enum ProgressFormat {
    /// `512 B`, `26.2 KiB`, `64.0 MiB` (SCLMArchive's byte counts, so sizes read alike everywhere).
    static func bytes(_ count: Int64) -> String { ByteCount.format(max(0, count)) }

    /// What a delta update saved: `fetched 212 KiB of 330 MiB: 3 files changed, 1,361 reused`.
    static func delta(_ summary: DeltaSummary) -> String {
        "fetched \(bytes(summary.fetchedBytes)) of \(bytes(summary.packageBytes)): "
            + "\(grouped(summary.changedFiles)) \(summary.changedFiles == 1 ? "file" : "files") changed, "
            + "\(grouped(summary.reusedFiles)) reused"
    }

    /// `1361` as `1,361`.
    static func grouped(_ count: Int) -> String {
        var text = String(count.magnitude)
        var index = text.endIndex
        while text.distance(from: text.startIndex, to: index) > 3 {
            index = text.index(index, offsetBy: -3)
            text.insert(",", at: index)
        }
        return (count < 0 ? "-" : "") + text
    }

    /// `31.4/64.0 MiB`, or `512 KiB/64.0 MiB` when the units differ; just the amount when the total is unknown.
    static func amount(_ done: Int64, of total: Int64) -> String {
        guard total > 0 else { return bytes(done) }
        let (doneText, totalText) = (bytes(done), bytes(total))
        let unit = totalText.split(separator: " ").last ?? ""
        if doneText.hasSuffix(" " + unit), done < total {
            return "\(doneText.dropLast(unit.count + 1))/\(totalText)"
        }
        return "\(doneText)/\(totalText)"
    }

    /// `12.3 MiB/s`; `-` when nothing was measured yet.
    static func rate(_ bytesPerSecond: Double?) -> String {
        guard let bytesPerSecond, bytesPerSecond.isFinite, bytesPerSecond > 0 else { return "-" }
        return bytes(Int64(bytesPerSecond)) + "/s"
    }

    /// `0:07`, `12:34`, `1:02:03`; `-:--` when unknown or absurd (over 99 hours).
    static func duration(_ seconds: Double?) -> String {
        guard let seconds, seconds.isFinite, seconds >= 0, seconds < 99 * 3600 else { return "-:--" }
        let total = Int(seconds.rounded(.up))
        let (hours, minutes, rest) = (total / 3600, total / 60 % 60, total % 60)
        return hours > 0
            ? String(format: "%d:%02d:%02d", hours, minutes, rest) : String(format: "%d:%02d", minutes, rest)
    }

    /// A bar of `width` cells for `fraction` (clamped to 0…1): `[#####·····]`.
    static func bar(_ fraction: Double, width: Int) -> String {
        let cells = max(1, width)
        let filled = Int((min(1, max(0, fraction.isFinite ? fraction : 0)) * Double(cells)).rounded(.down))
        return "[" + String(repeating: "#", count: filled) + String(repeating: "·", count: cells - filled) + "]"
    }

    /// `35%` of `done` in `total` (`--%` when the total is unknown).
    static func percent(_ done: Int64, of total: Int64) -> String {
        guard total > 0 else { return "--%" }
        return "\(min(100, Int(Double(done) * 100 / Double(total))))%"
    }

    /// `text` cut to `width` characters, with `…` at the end when it was cut.
    static func truncated(_ text: String, to width: Int) -> String {
        guard text.count > width else { return text }
        guard width > 1 else { return String(text.prefix(max(0, width))) }
        return String(text.prefix(width - 1)) + "…"
    }

    /// `text` padded with spaces (or cut) to exactly `width` characters.
    static func padded(_ text: String, to width: Int) -> String {
        let cut = truncated(text, to: width)
        return cut + String(repeating: " ", count: max(0, width - cut.count))
    }
}
