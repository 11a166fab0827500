import Foundation

extension URL {
    /// A URL from a literal the test author knows to be valid (stops the test run if it is not).
    package init(literal: StaticString) {
        guard let url = URL(string: "\(literal)") else { preconditionFailure("not a URL: \(literal)") }
        self = url
    }
}
