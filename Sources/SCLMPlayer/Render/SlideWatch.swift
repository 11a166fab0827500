import Foundation
import SCLMBrowser
import SCLMCore
import Synchronization

/// Follows one hosted slide through a render's phases — load, settle, screenshot, late window — while a
/// guard asks the loaded page every second whether its script still answers.
///
/// A page whose script never yields (`while (true) {}`) sends no DevTools events, so silence is not
/// "settled": a loaded page that leaves a trivial `Runtime.evaluate` unanswered for
/// ``SlideRenderer/Limits/busy`` is stuck, and its render ends at once as `RENDER-TIMEOUT` in the phase it
/// was in. That matters beyond the slide: while a stuck renderer lives, Chromium holds up the pictures of
/// the browser's other pages (a clean page's `Page.captureScreenshot` took 2.5 s to more than 8 s beside
/// a spinning one, and 0.1 s once it was closed), so the guard ends it before they time out.
struct SlideWatch: Sendable {
    /// The slide's package path.
    let slide: String
    let page: BrowserPage
    let bridge: PageBridge
    let limits: SlideRenderer.Limits
    /// For ``RenderPass/pictures``, the page is settled (``StillPicture``) before its picture.
    let pass: RenderPass

    /// How a slide's render ended.
    enum Ending: Sendable, Equatable {
        /// Rendered, with its picture when one was asked for.
        case rendered(Data?)
        /// Stuck in a phase, and why.
        case timedOut(SlideStatus.Phase, String)
        /// The page's renderer died.
        case crashed(String)
    }

    /// The phase the render is in, shared by the phases and the guard.
    private final class PhaseCell: Sendable {
        private let phase = Mutex(SlideStatus.Phase.load)
        var current: SlideStatus.Phase { phase.withLock { $0 } }
        func set(_ next: SlideStatus.Phase) { phase.withLock { $0 = next } }
    }

    /// What a wait came to.
    private enum Wait {
        case met, expired, crashed(String)
    }

    /// Runs the phases and the guard; returns as soon as either ends the render. `pictured` runs once the
    /// picture is taken (or not asked for), before the late window.
    func run(screenshot: Bool, pictured: @escaping @Sendable () -> Void) async -> Ending {
        let phase = PhaseCell()
        return await withTaskGroup(of: Ending?.self) { group in
            group.addTask { await follow(screenshot: screenshot, phase: phase, pictured: pictured) }
            group.addTask { await guardPage(phase: phase) }
            var ending: Ending?
            while ending == nil, let next = await group.next() { ending = next }
            group.cancelAll()
            return ending ?? .crashed("the render was cancelled")
        }
    }

    // MARK: - Phases

    private func follow(screenshot: Bool, phase: PhaseCell, pictured: @Sendable () -> Void) async
        -> Ending?
    {
        let deadline = ContinuousClock.now + limits.timeout
        let seconds = limits.timeout.secondsText
        switch await wait(until: deadline, for: { $0.loaded != nil }) {
        case .met: break
        case .expired: return .timedOut(.load, "did not finish loading within \(seconds) s (--render-timeout)")
        case .crashed(let reason): return .crashed(reason)
        }
        if RenderTestHook.crashingSlides.contains(slide) { page.send("Page.crash") }
        phase.set(.settle)
        switch await wait(until: deadline, for: { $0.isQuiet(for: limits.quiet) }) {
        case .met: break
        case .expired:
            return .timedOut(
                .settle, "still making requests or bridge calls \(seconds) s after it began loading (--render-timeout)")
        case .crashed(let reason): return .crashed(reason)
        }
        if let stuck = await probe(in: .settle) { return stuck }
        phase.set(.screenshot)
        var image: Data?
        if screenshot {
            switch await picture() {
            case .success(let data): image = data
            case .failure(let failure): return failure.ending
            }
        }
        pictured()
        phase.set(.window)
        let windowDeadline = ContinuousClock.now + limits.timeout + limits.window
        let (window, cap, quiet) = (limits.window, limits.timeout, limits.quiet)
        // Quiet again, too: on a loaded machine a request loop can outlast the window's cap, and what it does
        // next (spin, throw) must still be seen.
        switch await wait(
            until: windowDeadline,
            for: { activity in
                activity.windowEnd(window, cap: cap).map { ContinuousClock.now >= $0 } ?? false
                    && activity.isQuiet(for: quiet)
            })
        {
        case .met: break
        case .expired:
            return .timedOut(
                .window, "still loading, or making requests or bridge calls, at the end of its late window")
        case .crashed(let reason): return .crashed(reason)
        }
        return await probe(in: .window) ?? .rendered(image)
    }

    /// The page's picture, or how the render ends without one; a slide that navigates itself while it is
    /// pictured is pictured again (what it then shows), up to three times.
    private func picture(attempt: Int = 1) async -> Result<Data, EndingFailure> {
        do {
            if pass == .pictures { try await StillPicture.settle(page, deadline: limits.screenshot) }
            return .success(try await page.screenshot(deadline: limits.screenshot))
        } catch let error as BrowserError where Self.isNavigation(error) && attempt < 3 {
            return await picture(attempt: attempt + 1)
        } catch let error as BrowserError where error.code == .timedOut {
            return .failure(
                EndingFailure(
                    .timedOut(
                        .screenshot,
                        "loaded, but no picture of it could be taken within \(limits.screenshot.secondsText) s"
                    )))
        } catch {
            return .failure(EndingFailure(.crashed(crashReason(error))))
        }
    }

    /// An ``Ending`` carried as an error.
    struct EndingFailure: Error {
        let ending: Ending
        init(_ ending: Ending) { self.ending = ending }
    }

    // MARK: - The guard

    /// Asks the loaded page every ``SlideRenderer/Limits/probeInterval`` whether its script answers; ends
    /// the render when it does not, or when the page crashes. Returns `nil` once cancelled.
    private func guardPage(phase: PhaseCell) async -> Ending? {
        var lastProbe = ContinuousClock.now
        while !Task.isCancelled {
            if case .crashed(let reason)? = bridge.outcomeSoFar { return .crashed(reason) }
            if bridge.currentActivity.loaded != nil, ContinuousClock.now - lastProbe >= limits.probeInterval {
                if let stuck = await probe(in: phase.current == .load ? .settle : phase.current) {
                    return Task.isCancelled ? nil : stuck
                }
                lastProbe = .now
            }
            try? await Task.sleep(for: Self.pollInterval)
        }
        return nil
    }

    /// `nil` when the page's script answers within ``SlideRenderer/Limits/busy`` (or the page is navigating:
    /// it is alive); otherwise how the render ends (stuck in `phase`, or crashed). A renderer that died
    /// answers nothing either, and its crash can be reported late (a crash dump written on a loaded machine),
    /// so a silent page gets a moment for its crash to show before it counts as stuck.
    private func probe(in phase: SlideStatus.Phase) async -> Ending? {
        do {
            if try await page.isResponsive(within: limits.busy) { return nil }
            if let crashed = await crash(within: Self.crashGrace) { return crashed }
            let seconds = limits.busy.secondsText
            let when = phase == .window ? "during its late window" : "after it loaded"
            return .timedOut(
                phase, "its script stopped answering \(when): no answer within \(seconds) s (a loop that never yields?)"
            )
        } catch is CancellationError {
            return nil
        } catch let error as BrowserError where Self.isNavigation(error) {
            return nil
        } catch {
            return .crashed(crashReason(error))
        }
    }

    /// How long a silent page is given for a crash to be reported.
    static let crashGrace: Duration = .seconds(2)

    /// The page's crash, if it is reported within `grace`.
    private func crash(within grace: Duration) async -> Ending? {
        let deadline = ContinuousClock.now + grace
        while ContinuousClock.now < deadline {
            if case .crashed(let reason)? = bridge.outcomeSoFar { return .crashed(reason) }
            try? await Task.sleep(for: Self.pollInterval)
        }
        return nil
    }

    /// Whether a call failed only because the page was navigating (content leaving for another document):
    /// Chromium refuses calls in flight then ("Inspected target navigated or closed").
    static func isNavigation(_ error: BrowserError) -> Bool {
        error.code == .protocolError && error.message.contains("navigated or closed")
    }

    // MARK: - Waiting

    /// How often waits look at the page.
    static let pollInterval: Duration = .milliseconds(25)

    /// Waits until `condition` holds for the page's activity, `deadline` passes or the page crashes.
    private func wait(until deadline: ContinuousClock.Instant, for condition: (PageActivity) -> Bool) async -> Wait {
        while true {
            if case .crashed(let reason)? = bridge.outcomeSoFar { return .crashed(reason) }
            if condition(bridge.currentActivity) { return .met }
            if ContinuousClock.now >= deadline || Task.isCancelled { return .expired }
            try? await Task.sleep(for: Self.pollInterval)
        }
    }

    /// Why a call failed, preferring the crash the page reported.
    private func crashReason(_ error: any Error) -> String {
        if case .crashed(let reason)? = bridge.outcomeSoFar { return reason }
        return (error as? BrowserError)?.message ?? "\(error)"
    }
}
