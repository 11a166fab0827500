/// When a host ends a session by itself, beside the content's `closePresentation`.
///
/// `sclm bridge` ends none (its caller decides, as StoryContent's user does); an unattended player
/// (`sclm play`) ends each session as complete, so the analytics outbox publishes it: after ``idle`` without a
/// slide change, on a return to the presentation's start slide (a new visitor), and when the player stops.
package struct SessionPolicy: Sendable, Equatable {
    /// Ends the session after this long without a slide change (monotonic time); `nil`: never.
    package var idle: Duration?
    /// Ends the session when the presentation returns to its start slide from another slide; the next
    /// session starts there.
    package var endsAtStartSlide: Bool
    /// Ends the session when the host stops, unless a browser restart follows.
    package var endsOnStop: Bool

    /// The policy of `sclm bridge`: sessions end only when content closes them; a stop leaves them
    /// unfinished, to be restored.
    package static let byContent = SessionPolicy(idle: nil, endsAtStartSlide: false, endsOnStop: false)

    /// The policy of an unattended player with `play.sessionIdle` as `idle`.
    package static func unattended(idle: Duration) -> SessionPolicy {
        SessionPolicy(idle: idle, endsAtStartSlide: true, endsOnStop: true)
    }
}
