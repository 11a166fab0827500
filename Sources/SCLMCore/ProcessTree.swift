import Foundation

/// A process and its descendants, as `/proc` shows them: for the memory a program uses with every process
/// it started (Chromium's browser, renderer, GPU and utility processes).
package struct ProcessTree: Sendable, Equatable {
    /// The process the tree starts from.
    package let root: pid_t
    /// `root` and every process below it, `root` first.
    package let members: [pid_t]

    /// The tree of `root` as `/proc` shows it now (only `root` when `/proc` cannot be read).
    package init(root: pid_t) {
        self.root = root
        members = Self.descendants(of: root, parents: Self.parents())
    }

    /// The summed proportional set size of the tree, in bytes: each process's `Pss:` in
    /// `/proc/PID/smaps_rollup` (memory shared between them counted once, in shares). A process whose file
    /// cannot be read (gone, or another user's) counts 0.
    package var proportionalSetSize: Int {
        members.reduce(0) { sum, pid in sum + (Self.proportionalSetSize(of: pid) ?? 0) }
    }

    /// `root` and its descendants in `parents` (each process's parent), breadth first.
    static func descendants(of root: pid_t, parents: [pid_t: pid_t]) -> [pid_t] {
        let children = Dictionary(grouping: parents.keys) { parents[$0] ?? 0 }
        var members = [root]
        var index = 0
        while index < members.count {
            members += (children[members[index]] ?? []).sorted()
            index += 1
        }
        return members
    }

    /// Each process's parent, from `/proc/PID/stat` (empty when `/proc` cannot be read).
    private static func parents() -> [pid_t: pid_t] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []
        var parents: [pid_t: pid_t] = [:]
        for name in names {
            guard let pid = pid_t(name),
                let stat = try? String(contentsOfFile: "/proc/\(name)/stat", encoding: .utf8),
                let parent = parent(inStat: stat)
            else { continue }
            parents[pid] = parent
        }
        return parents
    }

    /// The parent in a `/proc/PID/stat` line: the second field after the command name, which is in
    /// parentheses and may itself hold spaces and parentheses.
    static func parent(inStat stat: String) -> pid_t? {
        guard let close = stat.lastIndex(of: ")") else { return nil }
        let fields = stat[stat.index(after: close)...].split(separator: " ")
        return fields.count > 1 ? pid_t(fields[1]) : nil
    }

    /// The `Pss:` of `/proc/PID/smaps_rollup` in bytes, or `nil` when it cannot be read.
    private static func proportionalSetSize(of pid: pid_t) -> Int? {
        guard let rollup = try? String(contentsOfFile: "/proc/\(pid)/smaps_rollup", encoding: .utf8) else {
            return nil
        }
        return proportionalSetSize(inRollup: rollup)
    }

    /// The `Pss:` line of a `smaps_rollup` text (`Pss:   1234 kB`) in bytes.
    static func proportionalSetSize(inRollup rollup: String) -> Int? {
        for line in rollup.split(separator: "\n") where line.hasPrefix("Pss:") {
            let fields = line.split(separator: " ")
            guard fields.count >= 2, let kibibytes = Int(fields[1]) else { return nil }
            return kibibytes * 1024
        }
        return nil
    }
}
