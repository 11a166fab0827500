import Foundation
import SCLMCore
import Synchronization

extension PresentationHost {
    /// What is on screen, for the player's metrics.
    package struct OnScreen: Sendable, Equatable {
        /// The presentation shown.
        package var presentationId: Int64
        /// Its installed revision.
        package var revision: Int64
        /// The slide shown.
        package var slide: String
        /// How long the slide has been on screen (monotonic time).
        package var sinceSlideChange: Duration
    }

    /// What is on screen now; `nil` when nothing is open.
    package var onScreen: OnScreen? {
        let uptime = clock.uptime
        return state.withLock { state in
            state.open.map { open in
                OnScreen(
                    presentationId: open.presentation.presentationId, revision: open.presentation.revision,
                    slide: open.slide, sinceSlideChange: uptime - open.slideShownUptime)
            }
        }
    }
}
