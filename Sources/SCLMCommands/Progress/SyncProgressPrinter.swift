import SCLMCore
import SCLMSync
import Synchronization

/// Shows the content phase of `sclm sync` as its events arrive, in one of three styles:
///
/// - `live` (stdout is a terminal): finished presentations as permanent lines, and below them a live
///   area with a bar per presentation in progress and a total (bytes, rate, ETA), redrawn at most ten
///   times a second whatever the events; log lines and notices are printed above it; ``finish()``
///   prints what is pending and removes it.
/// - `lines` (stdout is not a terminal): one plain line per finished presentation.
/// - `json` (`--json`): every event as one JSON line (`started`, `progress`, `installed`, …).
///
/// Events come from many threads; everything is written under one lock, so lines never interleave.
final class SyncProgressPrinter: Sendable {
    enum Style: Sendable { case live, lines, json }

    private struct State {
        var board = ProgressBoard()
        /// Live lines on screen below the permanent output.
        var drawnLines = 0
        var lastDraw: ContinuousClock.Instant?
        var isFinished = false
        /// Presentation names seen in events, for the summary.
        var names: [Int64: String] = [:]
    }

    /// The shortest gap between two redraws of the live area.
    static let redrawInterval: Duration = .milliseconds(100)

    let style: Style
    private let stdout: StandardStream
    private let columns: Int
    private let usesColor: Bool
    private let state = Mutex(State())

    /// Creates a printer; `columns` bounds live lines, `usesColor` colours the marks of finished lines.
    init(style: Style, stdout: StandardStream, columns: Int, usesColor: Bool) {
        self.style = style
        self.stdout = stdout
        self.columns = max(20, columns)
        self.usesColor = usesColor
    }

    /// The printer for a command's context: JSON with `--json`, live on a terminal, lines otherwise.
    static func make(for context: CommandContext) -> SyncProgressPrinter {
        let style: Style = context.wantsJSON ? .json : context.terminal.isStdoutTerminal ? .live : .lines
        return SyncProgressPrinter(
            style: style, stdout: context.stdout, columns: context.terminal.columns,
            usesColor: context.terminal.usesColor)
    }

    /// Shows `event`.
    func handle(_ event: ContentEvent) { handle(event, at: .now) }

    /// Shows `event`, received at `now` (tests pass the time).
    func handle(_ event: ContentEvent, at now: ContinuousClock.Instant) {
        state.withLock { state in
            guard !state.isFinished else { return }
            state.board.apply(event, at: now)
            if let id = event.presentationId, let name = Self.name(in: event) { state.names[id] = name }
            switch style {
            case .json:
                stdout.writeLine(JSONOutput.line(event))
            case .lines:
                for line in state.board.takeFinishedLines() { stdout.writeLine(line.text.rendered) }
            case .live:
                // Finished lines wait for the next redraw (or `finish()`), so a burst of small presentations
                // does not redraw more than ten times a second either.
                if let last = state.lastDraw, now - last < Self.redrawInterval { return }
                redraw(&state, at: now)
            }
        }
    }

    /// Prints `line` on stderr without disturbing the live area (log lines, the Ctrl-C notice).
    func printAbove(_ line: String) {
        state.withLock { state in
            guard style == .live, !state.isFinished, state.drawnLines > 0 else {
                return StandardStream.standardError.writeLine(line)
            }
            stdout.write(eraseLiveArea(&state))
            StandardStream.standardError.writeLine(line)
            redraw(&state, at: .now)
        }
    }

    /// Removes the live area and prints what is left; later events are ignored.
    func finish() {
        state.withLock { state in
            guard !state.isFinished else { return }
            if style == .live {
                stdout.write(eraseLiveArea(&state) + finishedText(&state))
            } else if style == .lines {
                for line in state.board.takeFinishedLines() { stdout.writeLine(line.text.rendered) }
            }
            state.isFinished = true
        }
    }

    /// How many presentations were installed, failed, busy or skipped so far.
    var tally: ProgressBoard.Tally { state.withLock { $0.board.tally } }

    /// The names of presentations the events mentioned, by id.
    var names: [Int64: String] { state.withLock { $0.names } }

    // MARK: - Drawing (under the lock)

    private func redraw(_ state: inout State, at now: ContinuousClock.Instant) {
        var output = eraseLiveArea(&state) + finishedText(&state)
        let lines = state.board.liveLines(at: now, width: columns - 1)
        for line in lines { output += line + "\n" }
        state.drawnLines = lines.count
        state.lastDraw = now
        stdout.write(output)
    }

    /// Moves to the top of the live area and clears from there to the end of the screen.
    private func eraseLiveArea(_ state: inout State) -> String {
        defer { state.drawnLines = 0 }
        return state.drawnLines > 0 ? "\r\u{1B}[\(state.drawnLines)A\u{1B}[J" : ""
    }

    private func finishedText(_ state: inout State) -> String {
        state.board.takeFinishedLines().map { colored($0) + "\n" }.joined()
    }

    private func colored(_ line: ProgressBoard.FinishedLine) -> String {
        let text = line.text.rendered
        guard usesColor, let first = text.first else { return text }
        let code =
            switch line.kind {
            case .installed: "32"
            case .failed: "31"
            case .busy: "33"
            case .skipped: "2"
            }
        return "\u{1B}[\(code)m\(first)\u{1B}[0m" + text.dropFirst()
    }

    private static func name(in event: ContentEvent) -> String? {
        switch event {
        case .started(let start): start.name
        case .installed(let installed): installed.name
        case .failed(let failure): failure.name
        case .skipped(let note), .busy(let note): note.name
        case .planned, .progress: nil
        }
    }
}
