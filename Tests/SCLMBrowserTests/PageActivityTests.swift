import SCLMBrowser
import SCLMTestSupport
import Testing

/// When a rendered slide counts as quiet, and where its late window ends.
@Suite(.tags(.small)) struct PageActivityTests {
    static let start = ContinuousClock.now

    /// The window runs from the last frame or worker start or request, not from the load: a worker that a
    /// loaded machine starts late still gets its whole window; what happens past the cap does not move it.
    @Test func theLateWindowRunsFromTheLastStartUpToTheCap() {
        var activity = PageActivity.loading(at: Self.start)
        #expect(activity.windowEnd(.seconds(3), cap: .seconds(15)) == nil, "no window while it loads")
        activity.loaded = Self.start + .seconds(1)
        #expect(activity.windowEnd(.seconds(3), cap: .seconds(15)) == Self.start + .seconds(4))
        activity.lastStart = Self.start + .seconds(2)
        #expect(activity.windowEnd(.seconds(3), cap: .seconds(15)) == Self.start + .seconds(5))
        activity.lastRequest = Self.start + .seconds(3)
        #expect(activity.windowEnd(.seconds(3), cap: .seconds(15)) == Self.start + .seconds(6), "a later request")
        activity.lastStart = Self.start + .seconds(60)
        #expect(activity.windowEnd(.seconds(3), cap: .seconds(15)) == Self.start + .seconds(19))
    }

    @Test func quietMeansLoadedAndNoRequestForAWhile() {
        var activity = PageActivity.loading(at: Self.start)
        #expect(!activity.isQuiet(for: .milliseconds(300), at: Self.start + .seconds(5)), "not loaded")
        activity.loaded = Self.start
        activity.lastRequest = Self.start + .seconds(1)
        #expect(!activity.isQuiet(for: .milliseconds(300), at: Self.start + .milliseconds(1200)))
        #expect(activity.isQuiet(for: .milliseconds(300), at: Self.start + .milliseconds(1300)))
    }
}
