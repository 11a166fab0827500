import Foundation
import SCLMTestSupport
import Testing

/// docs/bridge.md is the bridge's reference: these checks keep it equal to what `sclm bridge` declares
/// (`bridge.describe`: every module's commands, the host's events), and keep the browser hosts
/// (`bridge-js/host.js`, `bridge-js/storyclm.d.ts`) on the same event names.
@Suite struct BridgeReferenceTests {
    static let root = ProcessRunner.packageRoot

    static func read(_ path: String) throws -> String {
        try String(contentsOfFile: root + "/" + path, encoding: .utf8)
    }

    /// What the built binary declares: commands by module, and events.
    struct Declared {
        var commands: [String: [String]] = [:]
        var events: [String] = []

        var allCommands: Set<String> { Set(commands.values.joined()) }
    }

    static func declared() async throws -> Declared {
        let bridge = try await BridgeSession()
        let data = try #require(await bridge.data("bridge.describe") as? [String: Any])
        #expect(await bridge.process.finish() == 0)
        var declared = Declared()
        for module in try #require(data["modules"] as? [[String: Any]]) {
            let name = try #require(module["name"] as? String)
            declared.commands[name] = try #require(module["commands"] as? [String])
        }
        declared.events = try #require(data["events"] as? [String])
        return declared
    }

    @Test func everyDeclaredCommandIsDocumentedAndNothingElse() async throws {
        let declared = try await Self.declared()
        let reference = BridgeReference(try Self.read("docs/bridge.md"))
        let osam = Set(ArchitectureDocumentTests.codeSpans(in: try Self.read("docs/osam.md")))
        var expected = declared.allCommands
        // `osam.*` stands for the OSAM module's commands, documented one by one in docs/osam.md.
        let osamCommands = Set(declared.commands["OSAM"] ?? [])
        #expect(!osamCommands.isEmpty && reference.wildcards == ["osam."])
        #expect(osamCommands.subtracting(osam).sorted() == [], "OSAM commands missing from docs/osam.md")
        expected.subtract(osamCommands)
        // The transport's own commands are described in prose.
        let transport = Set(declared.commands["bridge"] ?? [])
        #expect(transport.subtracting(reference.spans).sorted() == [], "transport commands missing")
        expected.subtract(transport)
        #expect(expected.subtracting(reference.commands).sorted() == [], "commands missing from docs/bridge.md")
        #expect(reference.commands.subtracting(expected).sorted() == [], "docs/bridge.md documents commands sclm lacks")
    }

    @Test func everyEventIsDocumentedAndNothingElse() async throws {
        let declared = try await Self.declared()
        let reference = BridgeReference(try Self.read("docs/bridge.md"))
        #expect(reference.events == declared.events, "docs/bridge.md's event table differs from bridge.describe")
    }

    @Test func theBrowserHostsFollowTheDeclaredEvents() async throws {
        let declared = Set(try await Self.declared().events)
        let followed = BridgeReference.followedEvents(hostScript: try Self.read("bridge-js/host.js"))
        #expect(!followed.isEmpty)
        #expect(followed.subtracting(declared).sorted() == [], "bridge-js/host.js follows events the host never emits")
        let typed = BridgeReference.typedEvents(declarations: try Self.read("bridge-js/storyclm.d.ts"))
        #expect(typed == declared, "storyclm.d.ts's StoryCLMEvents differs from bridge.describe's events")
    }
}

/// The command and event tables of docs/bridge.md, and the event names a script uses.
struct BridgeReference {
    /// Commands named in the first column of a table headed `command`.
    private(set) var commands: Set<String> = []
    /// Prefixes documented as a whole (`osam.*` → `osam.`).
    private(set) var wildcards: Set<String> = []
    /// Events in the first column of the table headed `event`, in order.
    private(set) var events: [String] = []
    /// Every code span of the document.
    let spans: Set<String>

    init(_ text: String) {
        spans = Set(ArchitectureDocumentTests.codeSpans(in: text))
        var header: String?
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            guard line.hasPrefix("|") else {
                header = nil
                continue
            }
            let first = line.split(separator: "|").first.map { $0.trimmingCharacters(in: .whitespaces) } ?? ""
            guard let table = header else {
                header = first
                continue
            }
            let names = ArchitectureDocumentTests.codeSpans(in: first)
            switch table {
            case "command":
                for name in names {
                    if name.hasSuffix(".*") { wildcards.insert(String(name.dropLast())) } else { commands.insert(name) }
                }
            case "event": events += names
            default: break
            }
        }
    }

    /// The `case "name":` labels of host.js's `followEvent`.
    static func followedEvents(hostScript: String) -> Set<String> {
        guard let start = hostScript.range(of: "followEvent(name, data) {"),
            let end = hostScript.range(of: "\n  }\n", range: start.upperBound..<hostScript.endIndex)
        else { return [] }
        return Set(
            hostScript[start.upperBound..<end.lowerBound].matches(of: #/case "([A-Za-z.]+)":/#).map {
                String($0.output.1)
            })
    }

    /// The keys of storyclm.d.ts's `StoryCLMEvents`.
    static func typedEvents(declarations: String) -> Set<String> {
        guard let start = declarations.range(of: "export interface StoryCLMEvents {"),
            let end = declarations.range(of: "\n}", range: start.upperBound..<declarations.endIndex)
        else { return [] }
        let body = declarations[start.upperBound..<end.lowerBound]
        return Set(body.matches(of: #/\n  ([A-Za-z]+):/#).map { String($0.output.1) })
    }
}
