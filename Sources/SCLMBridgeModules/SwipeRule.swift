import SCLMArchive

/// Where `getNextSlide` and `getPreviousSlide` lead from a slide, the way the package declares it.
///
/// For the slide on screen, in this order:
///
/// | the slide's `clm-swipe-next` meta | the server's `swipeNext` | answer |
/// | --- | --- | --- |
/// | names a slide | anything | that slide (404 if the package lacks it) |
/// | present, empty | anything | 404 "No next slide" |
/// | absent | non-empty | that slide (404 if the package lacks it) |
/// | absent | empty or absent | the next slide in presentation order, else 404 |
///
/// `getPreviousSlide` reads `clm-swipe-previous` and `swipePrevious` alike. The package's own meta wins
/// because the server sends `""` by default, whatever the package says.
enum SwipeRule {
    /// The direction of a swipe.
    enum Direction: Sendable {
        case next, previous

        /// The step through presentation order.
        var step: Int { self == .next ? 1 : -1 }

        /// The answer when there is no slide that way.
        var noSlideMessage: String { self == .next ? "No next slide" : "No previous slide" }
    }

    /// What the rule answers.
    enum Target: Equatable, Sendable {
        /// That slide (which the package must contain).
        case slide(String)
        /// No slide that way (404).
        case none
    }

    /// Decides the target of a swipe from `current`.
    ///
    /// - Parameters:
    ///   - direction: next or previous.
    ///   - current: the slide on screen.
    ///   - declared: the meta tags of its file.
    ///   - server: its row in the server's slide list, if it is listed.
    ///   - order: the server's slide list, in presentation order.
    /// - Returns: the slide to answer, or ``Target/none``.
    static func target(
        _ direction: Direction, from current: String, declared: SlideMeta, server: InstalledPresentation.Slide?,
        order: [String]
    ) -> Target {
        let neighbour = order.firstIndex(of: current).map { $0 + direction.step }.flatMap {
            order.indices.contains($0) ? order[$0] : nil
        }
        return target(
            declared: direction == .next ? declared.swipeNext : declared.swipePrevious,
            server: direction == .next ? server?.swipeNext : server?.swipePrevious, neighbour: neighbour)
    }

    /// Decides the target of a swipe once the direction has picked the fields.
    ///
    /// - Parameters:
    ///   - declared: the slide's meta target: `nil` without the tag, `""` for a tag with empty content.
    ///   - server: the server's target for the slide (`nil` and `""` both mean none).
    ///   - neighbour: the adjacent slide in presentation order, if there is one.
    /// - Returns: the slide to answer, or ``Target/none``.
    static func target(declared: String?, server: String?, neighbour: String?) -> Target {
        if let declared { return declared.isEmpty ? .none : .slide(declared) }
        if let server, !server.isEmpty { return .slide(server) }
        return neighbour.map(Target.slide) ?? .none
    }
}
