import Foundation
import SCLMCore
import SCLMStore
import SCLMTestSupport
import Testing

/// Packages as real StoryCLM presentations come, with a missing font, image or swipe target: `sclm sync`
/// installs them and keeps their findings (`show`, `list`, `status`, the `installed` event) unless
/// `sync.contentPolicy` is `refuse`; safety findings refuse a package under both policies.
@Suite(.tags(.large), .timeLimit(.minutes(3))) struct ContentFindingsTests {
    let harness: SyncTests

    init() async throws { harness = try await SyncTests() }

    /// Presentation 201 (client 2) is the one whose package the tests replace.
    static let id: Int64 = 201
    static let sources = "content/2/201/sources"

    /// One way a real package is incomplete, and the content rule that reports it.
    struct Breakage: Sendable, CustomTestStringConvertible {
        let name: String
        let rule: String
        let path: String
        let line: Int
        let edit: @Sendable (inout DeckFiles) -> Void

        var testDescription: String { "\(name) → \(rule)" }
    }

    /// The files of a small two-slide deck shaped like the public StoryCLM samples.
    struct DeckFiles {
        var index = """
            <!DOCTYPE html>
            <html>
            <head>
              <meta charset="utf-8">
              <meta name="clm-swipe-next" content="slide2.html">
              <link rel="stylesheet" href="css/style.css">
            </head>
            <body>
              <img src="img/logo.png" alt="">
            </body>
            </html>
            """
        var slide2 = """
            <!DOCTYPE html>
            <html>
            <head>
              <meta name="clm-swipe-previous" content="index.html">
              <meta name="clm-swipe-next" content="">
              <link rel="stylesheet" href="css/style.css">
            </head>
            <body><p>Dosage</p></body>
            </html>
            """
        var css = "body { font-family: Arial, sans-serif; }\n"
        var hasIndex = true

        func zip() -> ZipBuilder {
            var zip = ZipBuilder()
            if hasIndex { zip.file("index.html", index) }
            zip.file("slide2.html", slide2)
            zip.file("css/style.css", css)
            zip.file("img/logo.png", bytes: [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A])
            return zip
        }
    }

    static let breakages: [Breakage] = [
        Breakage(name: "CSS url() to a missing font", rule: "REF-MISSING", path: "css/style.css", line: 3) {
            $0.css = """
                body { font-family: Brand, Arial, sans-serif; }
                @font-face { font-family: Brand;
                  src: url("../fonts/Brand-Regular.woff2") format("woff2"); }

                """
        },
        Breakage(name: "<img> of a missing file", rule: "REF-MISSING", path: "index.html", line: 10) {
            $0.index = $0.index.replacingOccurrences(
                of: "<img src=\"img/logo.png\" alt=\"\">",
                with: "<img src=\"img/logo.png\" alt=\"\">\n  <img src=\"img/chart-2024.png\">")
        },
        Breakage(name: "dangling clm-swipe-next", rule: "SWIPE-TARGET-MISSING", path: "slide2.html", line: 5) {
            $0.slide2 = $0.slide2.replacingOccurrences(of: "content=\"\"", with: "content=\"slide3.html\"")
        },
    ]

    /// Serves `files` as the next revision of presentation 201.
    func publish(_ files: DeckFiles, as name: String = "deck.zip") async throws {
        let path = harness.folder.appending(name)
        try files.zip().write(to: path)
        try await harness.server.control(["action": "setPackage", "presentationId": 201, "path": .string(path)])
    }

    func sync(_ arguments: [String] = []) async throws -> ProcessResult {
        try await harness.sclm(["sync", "--presentation", "201"] + arguments)
    }

    func setContentPolicy(_ value: String) async throws {
        let result = try await harness.sclm(["config", "set", "sync.contentPolicy", value])
        try #require(result.status == 0, "\(result)")
    }

    /// `sclm show 201 --json`'s `findings`.
    func storedFindings() async throws -> Any? {
        let show = try await harness.sclm(["show", "201", "--json"])
        try #require(show.status == 0, "\(show)")
        let details = try #require(try show.json() as? [String: Any])
        return details["findings"]
    }

    /// The installed files of presentation 201, for comparing revisions.
    func installedFiles() -> [String: Data] {
        let root = harness.home + "/" + Self.sources
        var files: [String: Data] = [:]
        for path in FileTree.files(in: root) { files[path] = FileManager.default.contents(atPath: root + "/" + path) }
        return files
    }

    @Test func theCleanDeckValidatesWithoutFindings() async throws {
        let path = harness.folder.appending("clean.zip")
        try DeckFiles().zip().write(to: path)
        let result = try await harness.sclm(["validate", "--strict", path])
        #expect(result.status == 0, "\(result)")
    }

    @Test(arguments: breakages)
    func aPackageWithAContentErrorIsRefusedUnderRefuseAndInstalledWithItsFindingsOtherwise(_ breakage: Breakage)
        async throws
    {
        try await harness.login()
        try await publish(DeckFiles())
        let clean = try await sync()
        try #require(clean.status == 0, "\(clean)")
        let before = installedFiles()
        var broken = DeckFiles()
        breakage.edit(&broken)

        try await setContentPolicy("refuse")
        try await publish(broken, as: "broken.zip")
        let refused = try await sync()
        #expect(refused.status == 1, "\(refused)")
        #expect(refused.stdout.contains("cannot install presentation 201") && refused.stdout.contains(breakage.rule))
        let kept = try harness.localState(of: Self.id)
        #expect(kept.installed == 2 && kept.state == 3 && kept.error?.contains(breakage.rule) == true)
        #expect(installedFiles() == before, "the previous revision stays as it was")

        try await setContentPolicy("install")
        let installed = try await sync(["--json"])
        #expect(installed.status == 0, "\(installed)")
        let event = try #require(SyncEvents(installed.stdout).named("installed").first)
        #expect(event["revision"] as? Int == 3)
        #expect(event["findings"] as? [String: Int] == ["error": 1, "warning": 0])
        #expect(try harness.localState(of: Self.id).installed == 3)
        let findings = try #require(try await storedFindings() as? [[String: Any]])
        #expect(findings.count == 1, "\(findings)")
        let finding = try #require(findings.first)
        #expect(finding["rule"] as? String == breakage.rule)
        #expect(finding["severity"] as? String == "error")
        #expect(finding["class"] as? String == "content")
        #expect(finding["path"] as? String == breakage.path)
        #expect(finding["line"] as? Int == breakage.line)
        #expect((finding["message"] as? String)?.isEmpty == false)
    }

    @Test func findingsAreCountedInListStatusAndTheSummaryAndALaterRevisionReplacesThem() async throws {
        try await harness.login()
        var broken = DeckFiles()
        Self.breakages[0].edit(&broken)
        broken.slide2 = broken.slide2.replacingOccurrences(
            of: "</head>", with: "  <script src=\"https://cdn.example.com/analytics.js\"></script>\n</head>")
        try await publish(broken)
        let result = try await sync()
        #expect(result.status == 0, "\(result)")
        #expect(
            result.stdout.contains(
                "Adult Vaccination Schedule (201) installed with 1 content error, 1 content warning (sclm show 201)"),
            "\(result)")

        let listed = try await harness.list()[Self.id]
        #expect(listed?["findings"] as? [String: Int] == ["error": 1, "warning": 1])
        let list = try await harness.sclm(["list", "--client", "2"])
        #expect(list.stdout.contains("FINDINGS") && list.stdout.contains("1 error, 1 warning"), "\(list)")
        let status = try await harness.sclm(["status", "--json"])
        let counts = try #require((try status.json() as? [String: Any])?["counts"] as? [String: Int])
        #expect(counts["installedWithFindings"] == 1 && counts["findingErrors"] == 1 && counts["findingWarnings"] == 1)
        #expect(counts["findingsUnknown"] == 0)
        let statusText = try await harness.sclm(["status"])
        #expect(statusText.stdout.contains("package findings: 1 error, 1 warning in 1 presentation"), "\(statusText)")
        let show = try await harness.sclm(["show", "201"])
        #expect(show.stdout.contains("Package findings (1 error, 1 warning):"), "\(show)")
        #expect(show.stdout.contains("error REF-MISSING [content] css/style.css:3:"), "\(show)")

        try await publish(DeckFiles(), as: "clean.zip")
        let clean = try await sync(["--json"])
        #expect(clean.status == 0, "\(clean)")
        #expect(
            SyncEvents(clean.stdout).named("installed").first?["findings"] as? [String: Int] == [
                "error": 0, "warning": 0,
            ])
        #expect(try await storedFindings() as? [Any] != nil)
        #expect((try await storedFindings() as? [Any])?.isEmpty == true, "the new revision's findings replace the old")
        #expect(try await harness.list()[Self.id]?["findings"] as? [String: Int] == ["error": 0, "warning": 0])
        let cleanShow = try await harness.sclm(["show", "201"])
        #expect(cleanShow.stdout.contains("Package findings: none."), "\(cleanShow)")
        let summary = try await sync()
        #expect(!summary.stdout.contains("installed with"))
    }

    @Test func aPackageWithoutIndexHTMLInstallsUnderTheDefaultPolicy() async throws {
        try await harness.login()
        var files = DeckFiles()
        files.hasIndex = false
        files.slide2 = files.slide2.replacingOccurrences(of: "content=\"index.html\"", with: "content=\"\"")
        try await publish(files)
        let result = try await sync(["--json"])
        #expect(result.status == 0, "\(result)")
        #expect(FileSystem.exists(harness.home + "/" + Self.sources + "/slide2.html"))
        let findings = try #require(try await storedFindings() as? [[String: Any]])
        #expect(findings.map { $0["rule"] as? String } == ["CONTENT-NO-INDEX"])
    }

    @Test func safetyFindingsRefuseThePackageUnderBothPolicies() async throws {
        try await harness.login()
        try await publish(DeckFiles())
        try #require(try await sync().status == 0)
        let before = installedFiles()
        let representative = ["zip slip", "symlink pointing outside", "CRC flipped", "character device"]
        let hostiles = HostileArchive.all.filter { representative.contains($0.name) }
        try #require(hostiles.count == representative.count)
        for policy in ["refuse", "install"] {
            try await setContentPolicy(policy)
            for hostile in hostiles {
                let package = harness.folder.appending("hostile.zip")
                try await hostile.write(to: package)
                try await harness.server.control([
                    "action": "setPackage", "presentationId": 201, "path": .string(package),
                ])
                let result = try await sync()
                let rule = hostile.extractionRule ?? hostile.rule
                #expect(result.status == 1 && result.stdout.contains(rule), "\(policy) \(hostile.name): \(result)")
                #expect(installedFiles() == before, "\(policy) \(hostile.name)")
            }
            // A safety error refuses the package even when its content errors alone would install.
            var mixed = DeckFiles()
            Self.breakages[1].edit(&mixed)
            var zip = mixed.zip()
            zip.symlink("img/escape", to: "/etc")
            let package = harness.folder.appending("mixed.zip")
            try zip.write(to: package)
            try await harness.server.control(["action": "setPackage", "presentationId": 201, "path": .string(package)])
            let result = try await sync()
            #expect(result.status == 1 && result.stdout.contains("ENTRY-SYMLINK"), "\(policy) mixed: \(result)")
            #expect(installedFiles() == before)
        }
        #expect(try harness.localState(of: Self.id).installed == 2)
    }

    @Test func aHomeFromBeforeFindingsWereRecordedShowsThemAsUnknown() async throws {
        try await harness.login()
        var broken = DeckFiles()
        Self.breakages[0].edit(&broken)
        try await publish(broken)
        try #require(try await sync().status == 0)
        // Back to what an sclm with schema version 1 left: no findings table, no marker column (nor the unpack
        // columns of version 4, the manifest of version 5, or the session columns of version 6).
        do {
            let db = try harness.database()
            try db.execute(
                script: """
                    DROP TABLE package_findings;
                    DROP TABLE installed_files;
                    ALTER TABLE presentations DROP COLUMN manifestRevision;
                    ALTER TABLE presentations DROP COLUMN findingsRevision;
                    ALTER TABLE presentations DROP COLUMN unpackRevision;
                    ALTER TABLE presentations DROP COLUMN interruptedRevision;
                    ALTER TABLE presentations DROP COLUMN unpackInterruptions;
                    ALTER TABLE sessions DROP COLUMN visit;
                    ALTER TABLE sessions DROP COLUMN checkIn;
                    PRAGMA user_version = 1;
                    """)
        }
        #expect(try await storedFindings() is NSNull, "unknown is null, never an empty list")
        let show = try await harness.sclm(["show", "201"])
        #expect(show.stdout.contains("Package findings: not recorded (revision 2 was installed by an earlier sclm)."))
        #expect(show.stdout.contains(#"sclm validate "$(sclm content path 201)""#), "\(show)")
        let listed = try await harness.list()[Self.id]
        #expect(listed?["findings"] is NSNull && listed?["installedRevision"] as? Int == 2)
        let list = try await harness.sclm(["list", "--client", "2"])
        #expect(list.stdout.contains("unknown"), "\(list)")
        let status = try await harness.sclm(["status", "--json"])
        let object = try #require(try status.json() as? [String: Any])
        #expect(object["schemaVersion"] as? Int == 6)
        #expect((object["counts"] as? [String: Int])?["findingsUnknown"] == 1)
        // What show suggests works, and finds what was not recorded.
        let path = try await harness.sclm(["content", "path", "201"])
        let validate = try await harness.sclm(["validate", path.stdout.trimmingCharacters(in: .newlines)])
        #expect(validate.status == 1 && validate.stdout.contains("REF-MISSING css/style.css:3"), "\(validate)")
    }

    @Test func contentPolicyTakesOnlyInstallOrRefuse() async throws {
        let bad = try await harness.sclm(["config", "set", "sync.contentPolicy", "ignore"])
        #expect(bad.status == 64, "\(bad)")
        #expect(bad.stderr.contains("sync.contentPolicy must be install or refuse, got 'ignore'"), "\(bad)")
        let get = try await harness.sclm(["config", "get", "sync.contentPolicy"])
        #expect(get.stdout == "install\n")
        // A hand-edited config.json is caught before anything is downloaded.
        try await harness.login()
        let config = harness.home + "/config.json"
        var stored =
            FileManager.default.contents(atPath: config).flatMap {
                try? JSONSerialization.jsonObject(with: $0) as? [String: Any]
            } ?? [:]
        stored["sync.contentPolicy"] = "Refuse"
        try FileSystem.writeAtomically(
            try JSONSerialization.data(withJSONObject: stored), to: config, mode: 0o600)
        let sync = try await sync()
        #expect(sync.status == 64, "\(sync)")
        #expect(sync.stderr.contains("sync.contentPolicy must be install or refuse, got 'Refuse'"), "\(sync)")
    }
}
