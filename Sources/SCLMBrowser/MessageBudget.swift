import SCLMCore

/// How much one slide may say in logs and reports: at most ``maximumIssues`` issues and
/// ``maximumBytes`` of their text; what is beyond is counted, and told once as
/// ``PageIssue/messagesCut(count:bytes:)``.
package struct MessageBudget: Sendable {
    /// The most issues one slide reports.
    package static let maximumIssues = 50
    /// The most bytes (of their JSON form) the issues of one slide report.
    package static let maximumBytes = 32 << 10

    private var keptIssues = 0
    private var keptBytes = 0
    private var cutIssues = 0
    private var cutBytes = 0

    /// Whether `issue` is reported; navigation notes and crashes always are.
    mutating func admit(_ issue: PageIssue) -> Bool {
        switch issue {
        case .navigation, .crashed, .messagesCut: return true
        default: break
        }
        let size = issue.json.jsonString.utf8.count
        guard keptIssues < Self.maximumIssues, keptBytes + size <= Self.maximumBytes else {
            cutIssues += 1
            cutBytes += size
            return false
        }
        keptIssues += 1
        keptBytes += size
        return true
    }

    /// The note for what was cut since the last slide began, if anything, and a fresh budget.
    mutating func close() -> PageIssue? {
        defer { self = MessageBudget() }
        return cutIssues > 0 ? .messagesCut(count: cutIssues, bytes: cutBytes) : nil
    }
}
