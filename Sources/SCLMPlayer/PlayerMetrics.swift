import Foundation
import SCLMBridgeModules
import SCLMCore

/// What a running `sclm play` reports to Prometheus: whether it plays, what is on screen and since when, how
/// often its browser was restarted, how far its recording is behind and how much memory its browser takes.
///
/// Written by ``PlayerStatus/reportingMetrics(to:every:logger:isolation:_:)`` as `sclm-play.prom`, the
/// metrics named `sclm_play_…` (docs/fleet.md).
package struct PlayerMetrics: Sendable, Equatable {
    /// Whether the player runs (`false` in the file written as it stops).
    package var isUp: Bool
    /// What is on screen; `nil` before the first slide shows and between browser runs.
    package var onScreen: PresentationHost.OnScreen?
    /// Browser restarts since `sclm play` started (a kiosk restarts a browser that died).
    package var browserRestarts: Int
    /// The recording of the presentation shown; `nil` when none is shown.
    package var recording: SessionRecorder.Status?
    /// The summed proportional set size of the browser's processes, in bytes (0 when no browser runs).
    package var browserMemory: Int

    /// The file `sclm play` writes: `sclm-play.prom` in the folder of `metrics.textfile` (`nil`, unset or
    /// empty: no file).
    package static func path(besideSyncMetrics syncPath: String?) -> String? {
        guard let syncPath, !syncPath.isEmpty else { return nil }
        return URL(fileURLWithPath: syncPath).deletingLastPathComponent().appendingPathComponent("sclm-play.prom")
            .path
    }

    /// The metrics in the text format.
    package var prometheus: PrometheusText {
        var text = PrometheusText()
        text.add("sclm_play_up", "1 while sclm play runs; 0 once it has stopped.", [([], isUp ? 1 : 0)])
        let presentation = onScreen.map { [("presentation", String($0.presentationId))] } ?? []
        text.add(
            "sclm_play_presentation_revision", "The revision of the presentation on screen.",
            onScreen.map { [(presentation, Double($0.revision))] } ?? [])
        text.add(
            "sclm_play_slide_info", "1 for the slide on screen, named by the slide label.",
            onScreen.map { [(presentation + [("slide", $0.slide)], 1)] } ?? [])
        text.add(
            "sclm_play_slide_age_seconds", "Seconds since the slide on screen appeared (the last slide change).",
            onScreen.map { [(presentation, ($0.sinceSlideChange.inSeconds * 1000).rounded() / 1000)] } ?? [])
        text.add(
            "sclm_play_browser_restarts", "Times the kiosk restarted its browser since sclm play started.",
            [([], Double(browserRestarts))])
        text.add(
            "sclm_play_recording_backlog", "Slide views, sessions and events waiting to be written to the database.",
            recording.map { [([], Double($0.backlog))] } ?? [])
        text.add(
            "sclm_play_recording_behind", "1 while recording waits for the database (locked, or the disk full).",
            recording.map { [([], $0.isBehind ? 1 : 0)] } ?? [])
        text.add(
            "sclm_play_recording_dropped", "Recorded changes dropped, oldest first, because the queue was full.",
            recording.map { [([], Double($0.dropped))] } ?? [])
        text.add(
            "sclm_play_browser_pss_bytes", "The summed proportional set size (PSS) of the browser's processes.",
            [([], Double(browserMemory))])
        return text
    }
}
