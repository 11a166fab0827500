import SCLMCore

/// What became of one slide of a render: rendered, or why not. A package passes a render only when every
/// slide it lists was rendered; each other status comes with a finding that says why.
package enum SlideStatus: Sendable, Equatable {
    /// Loaded, settled, pictured, and still answering at the end of its late window.
    case rendered
    /// Stuck in `phase` (`RENDER-TIMEOUT`).
    case timedOut(Phase)
    /// Its page's renderer died (`RENDER-CRASHED`).
    case crashed
    /// Never rendered: the run was cancelled or the browser exited first (`RENDER-NOT-REACHED`).
    case notReached

    /// Where a slide got stuck.
    package enum Phase: String, Sendable, Equatable {
        /// Its main frame never fired its load event.
        case load
        /// It kept making requests or bridge calls, or its script stopped answering, before its picture.
        case settle
        /// Its picture could not be taken.
        case screenshot
        /// Its script stopped answering during its late window, after its picture.
        case window
    }

    /// The status's name in reports: `rendered`, `timedOut`, `crashed`, `notReached`.
    package var name: String {
        switch self {
        case .rendered: "rendered"
        case .timedOut: "timedOut"
        case .crashed: "crashed"
        case .notReached: "notReached"
        }
    }

    /// Why a slide with this status has no picture, in a contact sheet's or a diff's words.
    package var missingPictureReason: String {
        switch self {
        case .rendered: "no picture"
        case .timedOut(let phase): "not rendered: timed out (\(phase.rawValue)), RENDER-TIMEOUT"
        case .crashed: "not rendered: its page crashed, RENDER-CRASHED"
        case .notReached: "not rendered: the run ended before it, RENDER-NOT-REACHED"
        }
    }

    /// The phase a timed-out slide was stuck in.
    package var phase: Phase? {
        if case .timedOut(let phase) = self { return phase }
        return nil
    }
}

/// The slides of one rendered package, in the order it lists them, each with its status.
package struct SlideTally: Sendable, Equatable {
    /// One slide and its status.
    package struct Entry: Sendable, Equatable {
        /// The slide's path in the package.
        package let slide: String
        /// What became of it.
        package let status: SlideStatus
        /// Its PNG relative to the screenshots folder, when one was written.
        package let image: String?

        /// Creates an entry.
        package init(slide: String, status: SlideStatus, image: String?) {
            self.slide = slide
            self.status = status
            self.image = image
        }
    }

    /// Every slide, in order.
    package var entries: [Entry]

    /// Creates a tally of `entries`.
    package init(_ entries: [Entry]) {
        self.entries = entries
    }

    /// How many slides ended with a status named `name` (``SlideStatus/name``).
    package func count(_ name: String) -> Int { entries.count { $0.status.name == name } }

    /// Whether every slide was rendered.
    package var allRendered: Bool { entries.allSatisfy { $0.status == .rendered } }

    /// The status names in report order, each with its count: `rendered`, `timedOut`, `crashed`, `notReached`.
    package var counts: [(name: String, count: Int)] {
        ["rendered", "timedOut", "crashed", "notReached"].map { ($0, count($0)) }
    }

    /// `40 slides: 38 rendered, 1 timed out, 1 crashed` (the statuses that occur, rendered always).
    package var summary: String {
        let words = [
            "rendered": "rendered", "timedOut": "timed out", "crashed": "crashed", "notReached": "not reached",
        ]
        let parts = counts.filter { $0.count > 0 || $0.name == "rendered" }.map {
            "\($0.count) \(words[$0.name] ?? $0.name)"
        }
        return "\(entries.count) slide\(entries.count == 1 ? "" : "s"): " + parts.joined(separator: ", ")
    }
}
