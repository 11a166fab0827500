import SCLMCore

/// A failure of the browser that hosts content: missing, refused to start, crashed, or a DevTools error.
///
/// A missing or unstartable browser is ``ErrorCategory/network`` (exit 69, "service unavailable"); a
/// crash or a protocol error is ``ErrorCategory/internal`` unless a caller maps it to its own status.
package struct BrowserError: CategorizedError, Equatable {
    /// What went wrong.
    package struct Code: Hashable, Sendable, CustomStringConvertible {
        private enum Value: Hashable, Sendable {
            case unavailable, crashed, protocolError, timedOut
        }

        private let value: Value

        /// No usable browser executable, or it would not start.
        package static let unavailable = Code(value: .unavailable)
        /// The browser or a page died while in use.
        package static let crashed = Code(value: .crashed)
        /// The browser answered a DevTools command with an error.
        package static let protocolError = Code(value: .protocolError)
        /// The browser did not answer a DevTools command in time (a stuck renderer).
        package static let timedOut = Code(value: .timedOut)

        package var description: String { "\(value)" }
    }

    /// The kind of failure.
    package let code: Code
    /// What failed and how to fix it.
    package let message: String

    /// Creates an error.
    package init(_ code: Code, _ message: String) {
        self.code = code
        self.message = message
    }

    package var category: ErrorCategory { code == .unavailable ? .network : .internal }
    package var description: String { message }

    /// The one-line answer when no browser can be found or started.
    static func notFound(_ detail: String) -> BrowserError {
        BrowserError(
            .unavailable,
            "\(detail): install Chromium (apt-get install chromium) or name a browser with --browser PATH or SCLM_BROWSER"
        )
    }
}
