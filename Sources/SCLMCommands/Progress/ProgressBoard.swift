import Foundation
import SCLMCore
import SCLMSync

/// The content phase as its events describe it, and the text that shows it: permanent lines for
/// finished presentations, live lines (one per presentation in progress plus a total) for a terminal.
///
/// A value type fed by ``apply(_:at:)``; the views own one behind a lock. Labels and lines are ``TerminalText``, so
/// the names and messages a server sent are escaped before they reach the live display.
struct ProgressBoard {
    /// A presentation being worked on.
    struct Active {
        let presentationId: Int64
        let label: TerminalText
        /// The package size (0 when unknown).
        let packageBytes: Int64
        var phase: ContentEvent.Phase = .download
        var bytes: Int64
        var totalBytes: Int64
        /// Where and when the current phase's measurement began, for its rate.
        var phaseStart: (bytes: Int64, at: ContinuousClock.Instant)
    }

    /// What happened to the presentations so far.
    struct Tally {
        var installed = 0
        var failed = 0
        var busy = 0
        var skipped = 0
    }

    private(set) var plan: ContentEvent.Plan?
    private(set) var active: [Active] = []
    private(set) var tally = Tally()
    /// Lines for finished presentations not yet taken by ``takeFinishedLines()``.
    private var finished: [FinishedLine] = []
    /// Package bytes of presentations that finished (installed or failed).
    private var completedBytes: Int64 = 0
    /// Bytes received over the network in this run.
    private var receivedBytes: Int64 = 0
    private var firstStart: ContinuousClock.Instant?

    /// A finished presentation's line and how it went.
    struct FinishedLine: Equatable {
        enum Kind { case installed, failed, skipped, busy }
        let kind: Kind
        let text: TerminalText
    }

    /// Updates the board with `event`, received at `now`.
    mutating func apply(_ event: ContentEvent, at now: ContinuousClock.Instant) {
        switch event {
        case .planned(let plan):
            self.plan = plan
        case .started(let start):
            firstStart = firstStart ?? now
            active.append(
                Active(
                    presentationId: start.presentationId, label: "\(start.presentationId) \(start.name)",
                    packageBytes: start.bytes, bytes: start.cachedBytes, totalBytes: start.bytes,
                    phaseStart: (start.cachedBytes, now)))
        case .progress(let progress):
            guard let index = active.firstIndex(where: { $0.presentationId == progress.presentationId }) else { return }
            var item = active[index]
            if item.phase != progress.phase {
                item.phase = progress.phase
                item.phaseStart = (progress.phase == .download ? item.bytes : 0, now)
            } else if progress.phase != .unpack, progress.bytes > item.bytes {
                receivedBytes += progress.bytes - item.bytes
            }
            item.bytes = progress.bytes
            item.totalBytes = progress.totalBytes
            active[index] = item
        case .installed(let installed):
            finish(installed.presentationId)
            tally.installed += 1
            let previous = installed.previousRevision.map { " (was \($0))" } ?? ""
            let received =
                installed.downloadedBytes > 0 ? ProgressFormat.bytes(installed.downloadedBytes) : "from cache"
            finished.append(
                FinishedLine(
                    kind: .installed,
                    text: "✓ \(installed.name) (\(installed.presentationId)) revision \(installed.revision)\(previous)"
                        + " · \(installed.files) files · \(received) in \(ProgressFormat.seconds(installed.seconds))"))
        case .failed(let failure):
            finish(failure.presentationId)
            tally.failed += 1
            finished.append(
                FinishedLine(
                    kind: .failed, text: "✗ \(failure.name) (\(failure.presentationId)) failed: \(failure.message)"))
        case .skipped(let note):
            tally.skipped += 1
            finished.append(
                FinishedLine(kind: .skipped, text: "- \(note.name) (\(note.presentationId)) skipped: \(note.reason)"))
        case .busy(let note):
            tally.busy += 1
            finished.append(
                FinishedLine(kind: .busy, text: "~ \(note.name) (\(note.presentationId)) busy: \(note.reason)"))
        }
    }

    /// The finished lines since the last call.
    mutating func takeFinishedLines() -> [FinishedLine] {
        defer { finished = [] }
        return finished
    }

    /// The live lines at `now`, each at most `width` characters: one per presentation in progress, then a
    /// total (when anything is planned).
    func liveLines(at now: ContinuousClock.Instant, width: Int) -> [String] {
        var rows = active.map { item in
            let elapsed = (now - item.phaseStart.at).inSeconds
            let rate =
                item.phase == .unpack || elapsed < 0.2 ? nil : Double(item.bytes - item.phaseStart.bytes) / elapsed
            return Row(
                label: item.label, phase: item.phase.rawValue, done: item.bytes, total: item.totalBytes, rate: rate)
        }
        if let plan, plan.presentations > 0 {
            let done = active.reduce(completedBytes) { total, item in
                Self.sum(total, item.phase == .download ? min(item.packageBytes, item.bytes) : item.packageBytes)
            }
            let elapsed = firstStart.map { (now - $0).inSeconds } ?? 0
            rows.append(
                Row(
                    label: "Total \(tally.installed + tally.failed)/\(plan.presentations)", phase: "", done: done,
                    total: plan.bytes, rate: elapsed > 0.2 && receivedBytes > 0 ? Double(receivedBytes) / elapsed : nil)
            )
        }
        return rows.map { $0.text(width: width) }
    }

    private mutating func finish(_ presentationId: Int64) {
        guard let index = active.firstIndex(where: { $0.presentationId == presentationId }) else { return }
        completedBytes = Self.sum(completedBytes, active[index].packageBytes)
        active.remove(at: index)
    }

    /// `a + b` through ``Checked``, the largest number when that overflows: package sizes are the server's
    /// numbers, and two of them near 2^63 must not stop a sync's display with a trap.
    private static func sum(_ a: Int64, _ b: Int64) -> Int64 {
        Checked(a).plus(b)?.value ?? (b < 0 ? .min : .max)
    }
}

/// One live line: `  label  phase [bar] pct done/total rate ETA`.
private struct Row {
    let label: TerminalText
    let phase: String
    let done: Int64
    let total: Int64
    /// Bytes per second, or `nil` when not measured (unpacking, just started).
    let rate: Double?

    /// Room kept for the figures (`100% 50.5/64.0 MiB 44.3 MiB/s ETA 0:01`), so every row's bar has the same size.
    private static let figuresWidth = 38

    /// The line in `width` characters: the label gives way first, then the bar (8 to 30 cells).
    func text(width: Int) -> String {
        let eta = rate.map { Double(max(0, total - done)) / $0 }
        let figures = [
            ProgressFormat.percent(done, of: total), ProgressFormat.amount(done, of: total),
            rate.flatMap { $0 > 0 ? "\(ProgressFormat.rate($0)) ETA \(ProgressFormat.duration(eta))" : nil } ?? "",
        ].filter { !$0.isEmpty }.joined(separator: " ")
        let phaseText = ProgressFormat.padded(phase, to: 8)
        // 2 + label + 1 + phase + 1 + [bar] + 1 + figures
        let room = width - Row.figuresWidth - phaseText.count - 7
        let labelWidth = min(32, max(10, room - 10))
        let barWidth = min(30, max(8, room - labelWidth))
        let bar = ProgressFormat.bar(total > 0 ? Double(done) / Double(total) : 0, width: barWidth)
        let line = "  \(ProgressFormat.padded(label.rendered, to: labelWidth)) \(phaseText) \(bar) \(figures)"
        return ProgressFormat.truncated(line, to: width)
    }
}

extension ProgressFormat {
    /// `42 ms`, `2.4 s`, `12 s`, `1:05` for a finished step's duration.
    static func seconds(_ value: Double) -> String {
        if value < 1 { return "\(Int((max(0, value) * 1000).rounded())) ms" }
        if value < 10 { return String(format: "%.1f s", value) }
        if value < 60 { return "\(Int(value.rounded())) s" }
        return duration(value)
    }
}
