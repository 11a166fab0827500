import Foundation
import SCLMArchive
import SCLMTestSupport
import Testing

@Suite(.tags(.small)) struct RuleTests {
    /// `Rule.all` is kept by hand: a rule declared but left out of it would never be documented, reported
    /// in JUnit or found by `Rule.named`.
    @Test func everyDeclaredRuleIsInTheCatalog() throws {
        let declared = try SourceDeclarations.firstArguments(of: "Rule", under: "Sources")
        #expect(declared.count >= 40, "the scan finds the declarations")
        #expect(Set(declared).subtracting(Rule.all.map(\.id)).sorted() == [], "declared but missing from Rule.all")
        #expect(declared.count == Rule.all.count, "Rule.all lists each declaration once")
    }

    @Test func idsAreUniqueAndNamedAfterTheirGroup() {
        #expect(Set(Rule.all.map(\.id)).count == Rule.all.count)
        for rule in Rule.all {
            let prefix = rule.id.split(separator: "-").first.map(String.init) ?? ""
            let groups: [String: Rule.Group] = [
                "ARCHIVE": .archive, "PATH": .path, "ENTRY": .entry, "BUDGET": .budget, "CONTENT": .content,
                "REF": .content, "SWIPE": .content, "STORYCLM": .content, "HTML": .content, "RENDER": .render,
            ]
            #expect(groups[prefix] == rule.group, "\(rule.id)")
            #expect(rule.summary.hasSuffix("."), "\(rule.id)")
            #expect(!rule.fix.isEmpty, "\(rule.id)")
            #expect(Rule.named(rule.id) == rule)
        }
    }

    @Test func everyRuleTakesItsClassFromItsGroup() {
        let safety: Set<Rule.Group> = [.archive, .path, .entry, .budget]
        for group in Rule.Group.allCases {
            #expect(group.ruleClass == (safety.contains(group) ? .safety : .content), "\(group)")
        }
        for rule in Rule.all {
            #expect(rule.ruleClass == rule.group.ruleClass, "\(rule.id)")
        }
        #expect(Rule.entrySymlink.ruleClass == .safety && Rule.budgetRatio.ruleClass == .safety)
        #expect(Rule.referenceMissing.ruleClass == .content && Rule.contentNoIndex.ruleClass == .content)
    }

    /// The decision sync applies: every safety error refuses under both content policies; a content error
    /// only under `refuse`; a warning never.
    @Test(arguments: ContentPolicy.allCases)
    func everySafetyErrorRefusesAndContentErrorsFollowThePolicy(_ contentPolicy: ContentPolicy) {
        var policy = Policy()
        policy.contentPolicy = contentPolicy
        for rule in Rule.all {
            let refuses = policy.refuses(Finding(rule, path: "index.html", message: "x"))
            let expected =
                rule.severity == .error && (rule.ruleClass == .safety || contentPolicy == .refuse)
            #expect(refuses == expected, "\(rule.id) under \(contentPolicy)")
            if rule.ruleClass == .safety { #expect(rule.severity == .error, "\(rule.id): a safety rule is an error") }
        }
    }

    @Test func theReadmeDocumentsEveryRuleWithItsSeverityAndClass() throws {
        let readme = try String(contentsOfFile: ProcessRunner.packageRoot + "/docs/validation.md", encoding: .utf8)
        for rule in Rule.all {
            let row = "| `\(rule.id)` | \(rule.severity.rawValue) | \(rule.ruleClass.rawValue) |"
            #expect(readme.contains(row), "\(rule.id) is missing from docs/validation.md's rule table (\(row))")
        }
    }
}
