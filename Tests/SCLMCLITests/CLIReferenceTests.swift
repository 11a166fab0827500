import Foundation
import SCLMCommands
import SCLMCore
import SCLMTestSupport
import Testing

/// docs/cli.md is the reference of every command, option, setting and environment variable: read from the same
/// command definitions that print `--help` (and the man page, which `InstallTests` checks the same way).
@Suite(.tags(.large)) struct CLIReferenceTests {
    static func reference() throws -> String {
        try String(contentsOfFile: ProcessRunner.packageRoot + "/docs/cli.md", encoding: .utf8)
    }

    @Test func docsCLINamesEveryCommandAndOptionAndNoOther() async throws {
        let text = try Self.reference()
        let paths = await InstallTests.commandPaths(["sclm"])
        #expect(paths.count > 20, "\(paths)")
        // The global options, which `sclm --help` lists.
        var options = Set(InstallTests.options(inHelp: try await ProcessRunner.sclm(["--help"]).stdout))
        for path in paths {
            #expect(Self.names(path, in: text), "docs/cli.md does not name `\(path.joined(separator: " "))`")
            let usage = try await ProcessRunner.sclm(Array(path.dropFirst()) + ["--help"])
            for option in InstallTests.options(inHelp: usage.stdout) {
                #expect(text.contains(option), "docs/cli.md does not name \(path.joined(separator: " ")) \(option)")
                options.insert(option)
            }
        }
        let documented = Self.firstCells(of: text).filter { $0.hasPrefix("--") }.map {
            String($0.prefix { $0 != " " && $0 != "=" })
        }
        #expect(documented.count > 40, "the option tables were read")
        #expect(Set(documented).subtracting(options).sorted() == [], "docs/cli.md documents options sclm lacks")
    }

    @Test func docsCLIDocumentsNoSettingSclmLacks() throws {
        let known = Set(SettingsCatalog.all.map(\.name))
        let documented = Self.firstCells(of: try Self.reference()).filter { cell in
            cell.contains(".") && cell.allSatisfy { $0.isLetter || $0.isNumber || $0 == "." }
        }
        #expect(documented.count > 30, "the settings table was read")
        #expect(Set(documented).subtracting(known).sorted() == [], "docs/cli.md documents settings sclm lacks")
    }

    /// The code span that starts each table row of `text`: `| `--jobs N` | …` → `--jobs N`.
    static func firstCells(of text: String) -> [String] {
        text.split(separator: "\n").compactMap { line in
            line.wholeMatch(of: #/\| `([^`]+)` \|.*/#).map { String($0.output.1) }
        }
    }

    @Test func docsCLINamesEverySettingAndItsEnvironmentVariable() throws {
        let text = try Self.reference()
        for key in SettingsCatalog.all {
            #expect(text.contains("`\(key.name)`"), "docs/cli.md does not name the setting \(key.name)")
            if let variable = key.environmentVariable {
                #expect(text.contains(variable), "docs/cli.md does not name \(variable) (\(key.name))")
            }
        }
    }

    /// `sclm a b` literally, or a heading naming `sclm a` with `b` among its `|`-separated forms
    /// (`### sclm config get|set|unset|list`).
    static func names(_ path: [String], in text: String) -> Bool {
        if text.contains(path.joined(separator: " ")) { return true }
        guard path.count == 3 else { return false }
        return text.split(separator: "\n").contains { line in
            line.hasPrefix("#") && line.contains("sclm \(path[1]) ")
                && line.split(whereSeparator: { " |`".contains($0) }).contains(Substring(path[2]))
        }
    }
}
