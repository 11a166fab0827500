import Foundation
import SCLMArchive
import SCLMTestSupport
import Testing

@Suite(.tags(.small)) struct RuleTests {
    @Test func idsAreUniqueAndNamedAfterTheirGroup() {
        #expect(Set(Rule.all.map(\.id)).count == Rule.all.count)
        for rule in Rule.all {
            let prefix = rule.id.split(separator: "-").first.map(String.init) ?? ""
            let groups: [String: Rule.Group] = [
                "ARCHIVE": .archive, "PATH": .path, "ENTRY": .entry, "BUDGET": .budget, "CONTENT": .content,
                "REF": .content, "SWIPE": .content, "STORYCLM": .content, "HTML": .content,
            ]
            #expect(groups[prefix] == rule.group, "\(rule.id)")
            #expect(rule.summary.hasSuffix("."), "\(rule.id)")
            #expect(!rule.fix.isEmpty, "\(rule.id)")
            #expect(Rule.named(rule.id) == rule)
        }
    }

    @Test func theReadmeDocumentsEveryRuleWithItsSeverity() throws {
        let readme = try String(contentsOfFile: ProcessRunner.packageRoot + "/README.md", encoding: .utf8)
        for rule in Rule.all {
            #expect(
                readme.contains("| `\(rule.id)` | \(rule.severity.rawValue) |"), "\(rule.id) is missing from README.md")
        }
    }
}
