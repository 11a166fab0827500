import Foundation
import SCLMCore
import SCLMTestSupport
import Testing

/// A hostile server's names (window-title, clear-screen and colour sequences, CR/LF, C1 and bidi overrides) never
/// reach the terminal raw: `sync`, `list`, `show`, `status` and error messages show them escaped in text mode,
/// while `--json` keeps the exact strings.
@Suite(.tags(.large), .timeLimit(.minutes(2))) struct HostileTextTests {
    /// A client name that retitles the window and forges an error line.
    static let clientName = "Evil\u{1B}]0;pwned\u{07}Corp\r\nError: forged by the server"
    /// A presentation name that clears the screen, paints red, forges a line and reverses the text after it.
    static let presentationName = "Deck\u{1B}[2J\u{1B}[31m\nforged line\u{202E}gpj.exe\u{9B}0m\u{7F}"
    static let presentationId: Int64 = 501

    let folder = TemporaryDirectory()
    let server: DevServer
    /// The home's own name carries a clear-screen sequence too, for `status`, which prints the home path.
    var home: String { folder.appending("home\u{1B}[2J") }

    init() async throws {
        let content = folder.appending("content")
        try Self.writeJSON([["id": 1, "name": Self.clientName]], to: content + "/clients.json")
        try Self.writeJSON(
            ["id": Self.presentationId, "clientId": 1, "revision": 1, "name": Self.presentationName],
            to: content + "/hostile/presentation.json")
        try folder.write("<html><body>hostile</body></html>", to: "content/hostile/index.html")
        server = try await DevServer.start(["--quiet", "--content", content])
    }

    private static func writeJSON(_ value: Any, to path: String) throws {
        try FileSystem.makeDirectory((path as NSString).deletingLastPathComponent, mode: 0o755)
        try JSONSerialization.data(withJSONObject: value).write(to: URL(fileURLWithPath: path))
    }

    private func sclm(_ arguments: [String]) async throws -> ProcessResult {
        try await ProcessRunner.sclm(arguments, home: home, environment: server.environment)
    }

    /// The scalars of `text` that could steer a terminal (the output's own line feeds aside).
    private static func rawControls(in text: String) -> [Unicode.Scalar] {
        text.unicodeScalars.filter { $0 != "\n" && TerminalText.isUnsafe($0) }
    }

    /// Checks that neither stream of `result` carries a raw control and no line was forged.
    private static func expectSanitised(_ result: ProcessResult, _ command: String) {
        for (stream, text) in [("stdout", result.stdout), ("stderr", result.stderr)] {
            #expect(rawControls(in: text).isEmpty, "\(command) \(stream): \(text.debugDescription)")
            let forged = text.split(separator: "\n").filter { $0.hasPrefix("forged") || $0.hasPrefix("Error: forged") }
            #expect(forged.isEmpty, "\(command) \(stream) has forged lines: \(forged)")
        }
    }

    @Test func textOutputEscapesWhatTheServerSentAndJSONKeepsItExactly() async throws {
        let login = try await sclm(["login", "--service"])
        try #require(login.status == 0, "\(login)")

        let sync = try await sclm(["sync"])
        #expect(sync.status == 0, "\(sync)")
        Self.expectSanitised(sync, "sync")
        #expect(
            sync.stdout.contains("✓ Deck\\u{1b}[2J\\u{1b}[31m\\u{a}forged line\\u{202e}gpj.exe\\u{9b}0m\\u{7f} (501)"))

        let list = try await sclm(["list"])
        #expect(list.status == 0, "\(list)")
        Self.expectSanitised(list, "list")
        #expect(list.stdout.contains("Evil\\u{1b}]0;pwned\\u{7}Corp\\u{d}\\u{a}Error: forged by the server (client 1)"))

        let show = try await sclm(["show", "\(Self.presentationId)"])
        #expect(show.status == 0, "\(show)")
        Self.expectSanitised(show, "show")
        #expect(show.stdout.contains("Presentation 501: Deck\\u{1b}[2J"))

        let status = try await sclm(["status"])
        #expect(status.status == 0, "\(status)")
        Self.expectSanitised(status, "status")
        #expect(status.stdout.contains("home\\u{1b}[2J"))

        let error = try await sclm(["list", "--client", "nobody"])
        #expect(error.status != 0, "\(error)")
        Self.expectSanitised(error, "list --client (an error message)")
        #expect(error.stderr.contains("Evil\\u{1b}]0;pwned"), "\(error)")
    }

    @Test func jsonOutputKeepsTheExactNames() async throws {
        let login = try await sclm(["login", "--service"])
        try #require(login.status == 0, "\(login)")
        let sync = try await sclm(["sync", "--metadata-only", "--json"])
        try #require(sync.status == 0, "\(sync)")

        let list = try #require(try await sclm(["list", "--json"]).json() as? [String: Any])
        let client = try #require((list["clients"] as? [[String: Any]])?.first)
        #expect(client["name"] as? String == Self.clientName)
        #expect((client["presentations"] as? [[String: Any]])?.first?["name"] as? String == Self.presentationName)

        let show = try await sclm(["show", "\(Self.presentationId)", "--json"])
        #expect(!show.stdout.unicodeScalars.contains("\u{1B}"), "JSON escapes ESC as \\u001b")
        let details = try #require(try show.json() as? [String: Any])
        #expect((details["presentation"] as? [String: Any])?["name"] as? String == Self.presentationName)
        #expect(details["clientName"] as? String == Self.clientName)
    }
}

/// A package's text (references in its HTML, entry names) in `sclm validate`'s text, JSON and JUnit reports
/// is escaped too: no report carries a raw control, line separator or bidirectional override.
@Suite(.tags(.large)) struct HostilePackageTextTests {
    /// The scalars of `text` that could steer a terminal or disguise text (the output's own line feeds aside).
    private static func rawUnsafe(in text: String) -> [Unicode.Scalar] {
        text.unicodeScalars.filter { $0 != "\n" && TerminalText.isUnsafe($0) }
    }

    private static func hostilePackage(in folder: TemporaryDirectory) throws -> String {
        var zip = ZipBuilder()
        zip.file("index.html", "<html><body><img src=\"img/a\u{1B}]0;pwned\u{07}\u{202E}.png\"></body></html>")
        zip.file("evil\u{1B}[2J\r\nforged.txt", "x")
        zip.file("photo\u{202E}gpj.exe", "x")
        zip.file("line\u{2028}break\u{85}.png", "x")
        let path = folder.appending("hostile.zip")
        try zip.write(to: path)
        return path
    }

    @Test func validateEscapesPackageTextInTheTextReportAndJSONKeepsIt() async throws {
        let folder = TemporaryDirectory()
        let path = try Self.hostilePackage(in: folder)

        let text = try await ProcessRunner.sclm(["validate", path])
        #expect(text.status == 1, "\(text)")
        #expect(Self.rawUnsafe(in: text.stdout + text.stderr).isEmpty, "\(text)")
        #expect(text.stdout.contains("img/a\\u{1b}]0;pwned\\u{7}\\u{202e}.png"), "\(text)")
        // Entry names arrive as raw bytes and are already shown printable by the archive reader.
        #expect(text.stdout.contains(#"PATH-CONTROL-CHAR evil\x1B[2J\r\nforged.txt"#), "\(text)")
        #expect(text.stdout.contains(#"PATH-CONTROL-CHAR photo\u{202e}gpj.exe"#), "\(text)")
        #expect(text.stdout.contains(#"PATH-CONTROL-CHAR line\u{2028}break\u{85}.png"#), "\(text)")

        let json = try await ProcessRunner.sclm(["validate", path, "--format", "json"])
        #expect(Self.rawUnsafe(in: json.stdout).isEmpty, "\(json.stdout)")
        #expect(json.stdout.contains(#"\u202e"#) && json.stdout.contains(#"\u001b"#), "\(json.stdout)")
        let report = try #require(try json.json() as? [String: Any])
        let findings = (report["packages"] as? [[String: Any]])?.first?["findings"] as? [[String: Any]] ?? []
        #expect(
            findings.contains { ($0["message"] as? String)?.contains("img/a\u{1B}]0;pwned\u{07}\u{202E}.png") == true })
        let controls = findings.filter { $0["rule"] as? String == "PATH-CONTROL-CHAR" }.compactMap {
            $0["path"] as? String
        }
        #expect(
            Set(controls) == [#"evil\x1B[2J\r\nforged.txt"#, #"photo\u{202e}gpj.exe"#, #"line\u{2028}break\u{85}.png"#])
    }

    @Test func junitShowsPackageTextEscaped() async throws {
        let folder = TemporaryDirectory()
        let path = try Self.hostilePackage(in: folder)
        let junit = try await ProcessRunner.sclm(["validate", path, "--format", "junit"])
        #expect(junit.status == 1, "\(junit)")
        #expect(Self.rawUnsafe(in: junit.stdout).isEmpty, "\(junit.stdout)")
        #expect(junit.stdout.contains("img/a\\u{1b}]0;pwned\\u{7}\\u{202e}.png"), "\(junit.stdout)")
        #expect(junit.stdout.contains(#"photo\u{202e}gpj.exe: the name contains"#), "\(junit.stdout)")
    }
}
