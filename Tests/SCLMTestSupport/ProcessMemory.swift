import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// What `/proc` says of a running process: its peak resident memory and its descendants.
package enum ProcessMemory {
    /// The `VmHWM` (peak resident set size) of `pid` in bytes, while it runs (`nil` once it has exited).
    package static func peakResidentBytes(of pid: Int32) -> Int64? {
        guard let status = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8),
            let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmHWM:") })
        else { return nil }
        let kilobytes = line.split(separator: " ").dropFirst().first.flatMap { Int64($0) }
        return kilobytes.map { $0 * 1024 }
    }

    /// Polls the `VmHWM` of `process` on a thread of its own every millisecond until it exits, and
    /// returns the last value read: the peak up to a moment before the exit.
    package static func watchPeak(of process: RunningProcess) async -> Int64 {
        await withCheckedContinuation { continuation in
            Thread {
                var peak: Int64 = 0
                while process.isRunning, let value = peakResidentBytes(of: process.pid) {
                    peak = max(peak, value)
                    usleep(1000)
                }
                continuation.resume(returning: peak)
            }.start()
        }
    }

    /// Whether a descendant of `pid` has `marker` in its command line (a browser's renderer:
    /// `--type=renderer`).
    package static func hasDescendant(of pid: Int32, withArgument marker: String) -> Bool {
        let entries = (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []
        var parents: [Int32: Int32] = [:]
        var matches: [Int32] = []
        for name in entries {
            guard let child = Int32(name),
                let stat = try? String(contentsOfFile: "/proc/\(name)/stat", encoding: .utf8),
                let close = stat.lastIndex(of: ")")
            else { continue }
            let fields = stat[stat.index(after: close)...].split(separator: " ")
            if fields.count > 1, let parent = Int32(fields[1]) { parents[child] = parent }
            if let arguments = try? Data(contentsOf: URL(fileURLWithPath: "/proc/\(name)/cmdline")),
                String(decoding: arguments, as: UTF8.self).contains(marker)
            {
                matches.append(child)
            }
        }
        return matches.contains { match in
            var current = match
            for _ in 0..<64 {
                guard let parent = parents[current], parent > 1 else { return false }
                if parent == pid { return true }
                current = parent
            }
            return false
        }
    }
}
