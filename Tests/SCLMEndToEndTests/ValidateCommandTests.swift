import Foundation
import SCLMTestSupport
import Testing

#if canImport(FoundationXML)
    import FoundationXML
#endif

/// `sclm validate` driven as a CI job would: packages in, report on stdout, exit status out.
@Suite(.tags(.large)) struct ValidateCommandTests {
    private static let brokenIndex = """
        <!DOCTYPE html>
        <html>
        <head>
          <meta name="clm-swipe-next" content="slide3.html">
          <link rel="stylesheet" href="CSS/main.css">
          <script src="https://cdn.example.com/jquery.js"></script>
        </head>
        <body>
          <img src="img/missing<&>.png" alt="">
        </body>
        </html>
        """

    /// A package with three errors (lines 4, 5, 9) and one warning (line 6); the missing image's name needs
    /// XML escaping.
    private static func brokenPackage(in folder: TemporaryDirectory) throws -> String {
        var zip = ZipBuilder()
        zip.file("index.html", brokenIndex)
        zip.file("css/main.css", "body { color: red }")
        let path = folder.appending("broken.zip")
        try zip.write(to: path)
        return path
    }

    /// A clean package, as a folder and as a zip.
    private static func cleanPackage(in folder: TemporaryDirectory) throws -> (folder: String, zip: String) {
        try folder.write(
            "<html><head><link rel=stylesheet href=css/a.css></head><body>hi</body></html>", to: "clean/index.html")
        try folder.write("body { background: url(../img/x.png) }", to: "clean/css/a.css")
        try folder.write("png", to: "clean/img/x.png")
        var zip = ZipBuilder()
        try zip.folder(contentsOf: folder.appending("clean"))
        try zip.write(to: folder.appending("clean.zip"))
        return (folder.appending("clean"), folder.appending("clean.zip"))
    }

    @Test func cleanPackagesExitZero() async throws {
        let folder = TemporaryDirectory()
        let clean = try Self.cleanPackage(in: folder)
        let result = try await ProcessRunner.sclm(["validate", clean.folder, clean.zip])
        #expect(result.status == 0, "\(result)")
        #expect(result.stdout.contains("clean.zip (zip, 5 entries"))
        #expect(result.stdout.hasSuffix("2 packages checked: 2 passed, 0 failed (0 errors, 0 warnings)\n"))
        #expect(result.stderr.isEmpty)
    }

    @Test func textOutputGroupsFindingsPerPackage() async throws {
        let folder = TemporaryDirectory()
        let broken = try Self.brokenPackage(in: folder)
        let result = try await ProcessRunner.sclm(["validate", broken])
        #expect(result.status == 1)
        #expect(
            result.stdout.contains("error REF-MISSING index.html:9: src 'img/missing<&>.png' is not in the package"))
        #expect(result.stdout.contains("warning REF-REMOTE index.html:6:"))
        #expect(result.stdout.contains("  failed: 3 errors, 1 warning"))
        #expect(!result.stdout.contains("\u{1B}["), "no colour when stdout is not a terminal")
    }

    @Test func jsonOutputFollowsTheDocumentedSchema() async throws {
        let folder = TemporaryDirectory()
        let broken = try Self.brokenPackage(in: folder)
        for arguments in [["validate", "--format", "json", broken], ["--json", "validate", broken]] {
            let result = try await ProcessRunner.sclm(arguments)
            #expect(result.status == 1)
            #expect(result.stdoutLines.count == 1, "one compact line")
            let document = try #require(try result.json() as? [String: Any])
            #expect(document["version"] as? Int == 1)
            #expect(document["strict"] as? Bool == false)
            let summary = try #require(document["summary"] as? [String: Int])
            #expect(
                summary == [
                    "packages": 1, "passed": 0, "failed": 1, "unreadable": 0, "errors": 3, "warnings": 1,
                    "cancelled": 0,
                ])
            let package = try #require((document["packages"] as? [[String: Any]])?.first)
            #expect(package["path"] as? String == broken)
            #expect(package["kind"] as? String == "zip")
            #expect(package["passed"] as? Bool == false)
            #expect(package["error"] is NSNull)
            let findings = try #require(package["findings"] as? [[String: Any]])
            let rows = findings.map { "\($0["rule"]!) \($0["severity"]!) \($0["path"]!):\($0["line"]!)" }
            #expect(
                rows == [
                    "SWIPE-TARGET-MISSING error index.html:4", "REF-CASE-MISMATCH error index.html:5",
                    "REF-REMOTE warning index.html:6", "REF-MISSING error index.html:9",
                ])
            #expect(
                findings.allSatisfy {
                    ($0["message"] as? String)?.isEmpty == false && ($0["fix"] as? String)?.isEmpty == false
                })
            #expect(findings.allSatisfy { $0["class"] as? String == "content" }, "\(findings)")
        }
    }

    @Test func jsonFindingsCarryTheirRuleClass() async throws {
        let folder = TemporaryDirectory()
        var zip = ZipBuilder()
        zip.file("index.html", "<img src=\"img/missing.png\">")
        zip.file("../evil.html", "<p>pwned</p>")
        try zip.write(to: folder.appending("mixed.zip"))
        let result = try await ProcessRunner.sclm(["validate", "--format", "json", folder.appending("mixed.zip")])
        #expect(result.status == 1)
        let document = try #require(try result.json() as? [String: Any])
        let package = try #require((document["packages"] as? [[String: Any]])?.first)
        let findings = try #require(package["findings"] as? [[String: Any]])
        let classes = Dictionary(
            findings.map { ($0["rule"] as? String ?? "", $0["class"] as? String ?? "") },
            uniquingKeysWith: { first, _ in first })
        #expect(classes["PATH-TRAVERSAL"] == "safety", "\(findings)")
        #expect(classes["REF-MISSING"] == "content", "\(findings)")
    }

    @Test func junitOutputParsesAsXMLWithOneTestCasePerRule() async throws {
        let folder = TemporaryDirectory()
        let broken = try Self.brokenPackage(in: folder)
        let clean = try Self.cleanPackage(in: folder)
        for strict in [false, true] {
            let result = try await ProcessRunner.sclm(
                ["validate", "--format", "junit", broken, clean.zip] + (strict ? ["--strict"] : []))
            #expect(result.status == 1)
            let parsed = try JUnitSummary(xml: result.stdout)
            #expect(parsed.suites == [broken, clean.zip])
            #expect(parsed.testCases.count == 2 * parsed.testCases.filter { $0.suite == broken }.count)
            let failing = parsed.testCases.filter(\.failed).map(\.name)
            let expected =
                ["REF-MISSING", "REF-CASE-MISMATCH", "SWIPE-TARGET-MISSING"] + (strict ? ["REF-REMOTE"] : [])
            #expect(Set(failing) == Set(expected))
            #expect(parsed.attributes["testsuites"]?["failures"] == "\(expected.count)")
            #expect(parsed.failureText.contains("index.html:9: src 'img/missing<&>.png' is not in the package"))
            #expect(strict || parsed.systemOut.contains("index.html:6: src 'https://cdn.example.com/jquery.js'"))
            #expect(parsed.testCases.allSatisfy { $0.ruleClass == "safety" || $0.ruleClass == "content" })
            let classes = Dictionary(
                parsed.testCases.map { ($0.name, $0.ruleClass) }, uniquingKeysWith: { first, _ in first })
            #expect(classes["REF-MISSING"] == "content" && classes["ARCHIVE-CRC"] == "safety")
        }
    }

    @Test func strictTurnsWarningsIntoFailures() async throws {
        let folder = TemporaryDirectory()
        try folder.write(
            "<html><body><img src=\"https://cdn.example.com/a.png\"></body></html>", to: "remote/index.html")
        #expect(try await ProcessRunner.sclm(["validate", folder.appending("remote")]).status == 0)
        let strict = try await ProcessRunner.sclm(["validate", "--strict", folder.appending("remote")])
        #expect(strict.status == 1)
        #expect(strict.stdout.contains("warnings fail (--strict)"))
    }

    @Test func budgetsComeFromTheCommandLine() async throws {
        let folder = TemporaryDirectory()
        let clean = try Self.cleanPackage(in: folder)
        let size = try await ProcessRunner.sclm(["validate", "--max-size", "10", "--format", "json", clean.zip])
        #expect(size.status == 1)
        #expect(size.stdout.contains("\"rule\":\"BUDGET-TOTAL-SIZE\""))
        let entries = try await ProcessRunner.sclm(["validate", "--max-entries", "2", clean.folder])
        #expect(entries.status == 1)
        #expect(entries.stdout.contains("BUDGET-ENTRY-COUNT"))
    }

    @Test(arguments: [
        ["validate"], ["validate", "--format", "yaml", "x.zip"], ["validate", "--max-size", "lots", "x.zip"],
        ["validate", "--max-entries", "0", "x.zip"], ["--json", "validate", "--format", "junit", "x.zip"],
    ])
    func usageErrorsExit64(_ arguments: [String]) async throws {
        let result = try await ProcessRunner.sclm(arguments)
        #expect(result.status == 64, "\(result)")
        #expect(result.stderr.contains("Usage: sclm validate"))
    }

    @Test func unreadableInputExits74AfterReportingTheRest() async throws {
        let folder = TemporaryDirectory()
        let clean = try Self.cleanPackage(in: folder)
        let result = try await ProcessRunner.sclm([
            "validate", "--format", "json", clean.zip, folder.appending("missing.zip"),
        ])
        #expect(result.status == 74)
        #expect(result.stderr.contains("cannot read \(folder.appending("missing.zip")): No such file or directory"))
        let document = try #require(try result.json() as? [String: Any])
        let packages = try #require(document["packages"] as? [[String: Any]])
        #expect(packages.map { $0["passed"] as? Bool } == [true, false])
        #expect((packages[1]["error"] as? String)?.contains("No such file or directory") == true)
        let text = try await ProcessRunner.sclm(["validate", clean.zip, folder.appending("missing.zip")])
        #expect(text.status == 74)
        #expect(text.stdout.contains("\(folder.appending("missing.zip"))\n  unreadable: No such file or directory\n"))
        #expect(text.stdout.components(separatedBy: "missing.zip").count == 2, "the path is named once: \(text)")
        #expect(
            text.stdout.contains("2 packages checked: 1 passed, 0 failed (0 errors, 0 warnings), 1 unreadable"),
            "an unreadable package is not counted as one that failed its checks: \(text)")
    }

    @Test(arguments: [
        ("FIFO entry", "ENTRY-SPECIAL pipe"), ("hard link (PKWARE Unix extra field)", "ENTRY-HARDLINK img/copy.png"),
    ])
    func entriesDeclaredSpecialInTheCentralDirectoryAreErrors(_ name: String, _ finding: String) async throws {
        // libarchive 3.6 reads both entries as regular files: only the declared mode and 0x000d field tell.
        let hostile = try #require(HostileArchive.all.first { $0.name == name })
        let folder = TemporaryDirectory()
        let zip = folder.appending("special.zip")
        try await hostile.write(to: zip)
        let result = try await ProcessRunner.sclm(["validate", zip])
        #expect(result.status == 1, "\(result)")
        #expect(result.stdout.contains("error \(finding):"), "\(result)")
        #expect(result.stdout.contains("  failed: 1 error, 0 warnings"), "only the declared type: \(result)")
    }

    /// Sizes and offsets near 2^64 once made validate trap on an overflowing addition (exit 132, no report).
    @Test(arguments: HostileArchive.all.filter { $0.name.hasPrefix("ZIP64") })
    func zip64ValuesNear2To64AreReportedAsCorruptInEveryFormat(_ hostile: HostileArchive) async throws {
        let folder = TemporaryDirectory()
        let zip = folder.appending("zip64.zip")
        try await hostile.write(to: zip)
        let text = try await ProcessRunner.sclm(["validate", zip])
        #expect(text.status == 1, "\(text)")
        #expect(text.stdout.contains("error ARCHIVE-CORRUPT"), "\(text)")
        let json = try await ProcessRunner.sclm(["validate", "--format", "json", zip])
        #expect(json.status == 1, "\(json)")
        let document = try #require(try json.json() as? [String: Any])
        let package = try #require((document["packages"] as? [[String: Any]])?.first)
        let rules = (package["findings"] as? [[String: Any]] ?? []).compactMap { $0["rule"] as? String }
        #expect(package["passed"] as? Bool == false && rules.contains("ARCHIVE-CORRUPT"), "\(json)")
        let junit = try await ProcessRunner.sclm(["validate", "--format", "junit", zip])
        #expect(junit.status == 1, "\(junit)")
        #expect(junit.stdout.contains("<failure") && junit.stdout.contains("ARCHIVE-CORRUPT"), "\(junit)")
    }

    @Test func aFIFOPathExits66WithoutOpeningIt() throws {
        let folder = TemporaryDirectory()
        let clean = try Self.cleanPackage(in: folder)
        let fifo = folder.appending("pipe.zip")
        try #require(mkfifo(fifo, 0o600) == 0)
        // Opening a FIFO for reading blocks until a writer comes: a blocked sclm is killed at the timeout
        // (status 137), so exit 66 proves the path was answered without waiting.
        let result = try ProcessRunner.run(
            ProcessRunner.sclmPath, ["validate", "--format", "json", clean.zip, fifo], timeout: 10)
        #expect(result.status == 66, "\(result)")
        #expect(result.stderr.contains("\(fifo) is not a file or folder (it is a FIFO)"), "\(result)")
        let document = try #require(try result.json() as? [String: Any])
        let packages = try #require(document["packages"] as? [[String: Any]])
        #expect(packages.map { $0["passed"] as? Bool } == [true, false])
        let text = try ProcessRunner.run(ProcessRunner.sclmPath, ["validate", fifo], timeout: 10)
        #expect(text.status == 66, "\(text)")
        #expect(text.stdout.contains("unreadable: \(fifo) is not a file or folder"), "\(text)")
        let device = try ProcessRunner.run(ProcessRunner.sclmPath, ["validate", "/dev/null"], timeout: 10)
        #expect(device.status == 66, "\(device)")
        #expect(device.stderr.contains("/dev/null is not a file or folder (it is a character device)"), "\(device)")
    }

    @Test func aRatioBombStopsWithBoundedMemory() throws {
        let folder = TemporaryDirectory()
        let zip = folder.appending("bomb.zip")
        var bomb = ZipBuilder()
        bomb.file("index.html", "<html></html>")
        bomb.zeros("mediafiles/zeros.bin", count: 256 << 20)
        try bomb.write(to: zip)
        // Python's getrusage reports the child's peak RSS (KiB) without adding its own memory to it. The
        // child's report comes first on stdout, then a last line "EXIT-CODE PEAK-KIB".
        let script = """
            import resource, subprocess, sys
            code = subprocess.run(sys.argv[1:]).returncode
            sys.stdout.flush()
            print(code, resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)
            """
        let result = try ProcessRunner.run(
            ProcessRunner.python, ["-c", script, ProcessRunner.sclmPath, "validate", "--format", "json", zip])
        let lines = result.stdout.split(separator: "\n")
        let fields = (lines.last ?? "").split(separator: " ").compactMap { Int($0) }
        #expect(fields.first == 1, "\(result)")
        let peakKiB = try #require(fields.last)
        #expect(peakKiB < 64 * 1024, "peak RSS \(peakKiB) KiB")
        #expect(lines.dropLast().joined().contains("\"rule\":\"BUDGET-RATIO\""))
    }

    /// Every assembled sample deck (a folder with an index.html) and its zip validate with no findings,
    /// warnings included: each package is self-contained.
    @Test func everySampleContentDeckValidatesClean() async throws {
        let root = try SampleContent.assembledPath
        let decks = try FileManager.default.contentsOfDirectory(atPath: root).sorted().filter {
            FileManager.default.fileExists(atPath: root + "/" + $0 + "/index.html")
        }
        try #require(!decks.isEmpty, "sample-content holds no decks")
        let folder = TemporaryDirectory()
        var paths: [String] = []
        for deck in decks {
            var zip = ZipBuilder()
            try zip.folder(contentsOf: root + "/" + deck)
            try zip.write(to: folder.appending(deck + ".zip"))
            paths += [root + "/" + deck, folder.appending(deck + ".zip")]
        }
        let result = try await ProcessRunner.sclm(["validate", "--strict"] + paths)
        #expect(result.status == 0, "\(result)")
        #expect(result.stdout.contains("\(paths.count) packages checked: \(paths.count) passed"))
    }
}

/// What a JUnit document contains, read back with Foundation's XMLParser (which rejects malformed XML).
private final class JUnitSummary: NSObject, XMLParserDelegate {
    struct TestCase {
        let suite: String
        let name: String
        var failed = false
        /// The test case's `class` property.
        var ruleClass: String?
    }

    private(set) var suites: [String] = []
    private(set) var testCases: [TestCase] = []
    private(set) var attributes: [String: [String: String]] = [:]
    private(set) var failureText = ""
    private(set) var systemOut = ""
    private var element = ""

    init(xml: String) throws {
        super.init()
        let parser = XMLParser(data: Data(xml.utf8))
        parser.delegate = self
        guard parser.parse() else { throw parser.parserError ?? CocoaError(.coderReadCorrupt) }
    }

    func parser(
        _ parser: XMLParser, didStartElement name: String, namespaceURI: String?, qualifiedName: String?,
        attributes: [String: String] = [:]
    ) {
        element = name
        self.attributes[name] = attributes
        switch name {
        case "testsuite": suites.append(attributes["name"] ?? "")
        case "testcase": testCases.append(TestCase(suite: suites.last ?? "", name: attributes["name"] ?? ""))
        case "failure": testCases[testCases.count - 1].failed = true
        case "property" where attributes["name"] == "class":
            testCases[testCases.count - 1].ruleClass = attributes["value"]
        default: break
        }
    }

    func parser(_ parser: XMLParser, foundCharacters string: String) {
        if element == "failure" { failureText += string }
        if element == "system-out" { systemOut += string }
    }
}
