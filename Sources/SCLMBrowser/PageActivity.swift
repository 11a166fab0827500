/// When a hosted page last did what a render waits on: its main frame's load, its last request or bridge
/// call, and the last start of one of its frames or workers.
///
/// A render takes a slide's screenshot once it has loaded and been quiet for a moment, and keeps hearing its
/// errors for a late window measured from ``lastStart`` or ``lastRequest``: a worker or iframe that starts
/// late, or a request loop that runs long (a loaded machine delays both), still gets its whole window, so
/// the verdict does not depend on the machine's load.
package struct PageActivity: Sendable, Equatable {
    /// When the main frame's load event fired (`nil` while it loads).
    package var loaded: ContinuousClock.Instant?
    /// When the page last made a request or a bridge call (or began loading).
    package var lastRequest: ContinuousClock.Instant
    /// When a frame or worker of the page last started (a script context created, a frame loaded), or the
    /// main frame loaded, whichever is later.
    package var lastStart: ContinuousClock.Instant

    /// A page that just began loading.
    package static func loading(at now: ContinuousClock.Instant = .now) -> PageActivity {
        PageActivity(loaded: nil, lastRequest: now, lastStart: now)
    }

    /// Whether it loaded and made no request or bridge call for `quiet` up to `now`.
    package func isQuiet(for quiet: Duration, at now: ContinuousClock.Instant = .now) -> Bool {
        loaded != nil && now - lastRequest >= quiet
    }

    /// The end of its late window of length `window`: `window` after its last frame or worker started or its
    /// last request or bridge call, whichever is later (a slide still fetching is not done starting: on a
    /// loaded machine a short fetch loop can outlast a window counted from the load), counting only what
    /// happened within `cap` of the load (a slide that keeps polling cannot hold a run forever); `nil` while
    /// it loads.
    package func windowEnd(_ window: Duration, cap: Duration) -> ContinuousClock.Instant? {
        guard let loaded else { return nil }
        return min(max(lastStart, lastRequest, loaded), loaded + cap) + window
    }
}
