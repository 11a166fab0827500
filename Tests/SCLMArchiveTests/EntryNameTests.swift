import Foundation
import SCLMCore
import SCLMTestSupport
import Testing

@testable import SCLMArchive

/// The path rules of entry names; names that could forge a line or disguise a file (C1 controls, line
/// separators, bidirectional controls) are refused like C0 controls, in a zip and in a folder alike, and
/// shown escaped.
@Suite(.tags(.medium)) struct EntryNameTests {
    private static func rules(_ raw: [UInt8]) -> [String] {
        EntryName(raw: raw, policy: Policy()).findings.map(\.rule.id)
    }

    @Test(
        arguments: [
            ("img/a.png", [String]()), ("./img//a.png", []), ("dir/", []), ("слайд.html", []),
            ("../a", ["PATH-TRAVERSAL"]), ("a/../../b", ["PATH-TRAVERSAL"]), ("/etc/x", ["PATH-ABSOLUTE"]),
            ("C:/x", ["PATH-ABSOLUTE"]), ("a\\b", ["PATH-BACKSLASH"]), ("a\u{1}b", ["PATH-CONTROL-CHAR"]),
            (String(repeating: "a", count: 256), ["PATH-TOO-LONG"]),
            (String(repeating: "d/", count: 33) + "x", ["BUDGET-DEPTH"]),
        ] as [(String, [String])])
    func checksNames(_ name: String, _ expected: [String]) {
        #expect(Self.rules(Array(name.utf8)) == expected)
    }

    @Test func invalidUTF8IsReportedAndShownEscaped() {
        let name = EntryName(raw: Array("img/".utf8) + [0xFF, 0x0A] + Array(".png".utf8), policy: Policy())
        #expect(name.findings.map(\.rule.id) == ["PATH-CONTROL-CHAR", "PATH-INVALID-UTF8"])
        #expect(name.display == "img/\\xFF\\n.png")
        #expect(name.path == "img/\u{FFFD}\n.png")
    }

    @Test func normalisesToARelativePath() {
        let name = EntryName(raw: Array("./css/./main.css".utf8), policy: Policy())
        #expect(name.path == "css/main.css")
        #expect(!name.isDirectory)
    }

    struct NameCase: Sendable, CustomTestStringConvertible {
        let label: String
        let name: String
        /// How the finding shows the name.
        let display: String
        var testDescription: String { label }
    }

    static let unsafe: [NameCase] = [
        NameCase(label: "C1 control NEL", name: "img/a\u{85}b.png", display: "img/a\\u{85}b.png"),
        NameCase(label: "C1 control CSI", name: "img/a\u{9B}b.png", display: "img/a\\u{9b}b.png"),
        NameCase(
            label: "right-to-left override", name: "img/photo\u{202E}gpj.exe", display: "img/photo\\u{202e}gpj.exe"),
        NameCase(label: "left-to-right embedding", name: "img/a\u{202A}b.png", display: "img/a\\u{202a}b.png"),
        NameCase(label: "first strong isolate", name: "img/a\u{2068}b.png", display: "img/a\\u{2068}b.png"),
        NameCase(label: "pop directional isolate", name: "img/a\u{2069}b.png", display: "img/a\\u{2069}b.png"),
        NameCase(label: "line separator", name: "img/a\u{2028}b.png", display: "img/a\\u{2028}b.png"),
        NameCase(label: "paragraph separator", name: "img/a\u{2029}b.png", display: "img/a\\u{2029}b.png"),
        NameCase(label: "C0 control LF", name: "img/a\nb.png", display: "img/a\\nb.png"),
    ]

    private static func controlFindings(_ report: PackageReport) -> [String] {
        report.findings.filter { $0.rule == .pathControlCharacter }.compactMap(\.path)
    }

    @Test(arguments: unsafe)
    func aZipEntryWithAnUnsafeCharacterIsRefused(_ test: NameCase) async throws {
        let folder = TemporaryDirectory()
        let zip = folder.appending("package.zip")
        var builder = PackageFixtures.validZip()
        builder.file(test.name, "x")
        try builder.write(to: zip)
        let report = try await PackageValidator().validate(zip)
        #expect(Self.controlFindings(report) == [test.display], "\(report.findings)")
        #expect(!report.passes(strict: false))
        #expect(report.findings.allSatisfy { $0.path?.unicodeScalars.contains(where: TerminalText.isUnsafe) != true })
    }

    @Test(arguments: unsafe)
    func aFolderEntryWithAnUnsafeCharacterIsRefused(_ test: NameCase) async throws {
        let folder = TemporaryDirectory()
        try PackageFixtures.writeValidFolder(at: folder.path)
        try Data("x".utf8).write(to: URL(fileURLWithPath: folder.path + "/" + test.name))
        let report = try await PackageValidator().validate(folder.path)
        #expect(Self.controlFindings(report) == [test.display], "\(report.findings)")
    }

    @Test func otherNonASCIINamesStayValid() async throws {
        let folder = TemporaryDirectory()
        let zip = folder.appending("package.zip")
        var builder = PackageFixtures.validZip()
        // Cyrillic, an emoji, a no-break space, a zero-width joiner and Arabic: ordinary text, nothing to refuse.
        builder.file("img/привет 🙂\u{A0}a\u{200D}b مرحبا.png", "x")
        try builder.write(to: zip)
        let report = try await PackageValidator().validate(zip)
        #expect(report.findings.filter { $0.rule.id.hasPrefix("PATH-") }.isEmpty, "\(report.findings)")
    }
}
