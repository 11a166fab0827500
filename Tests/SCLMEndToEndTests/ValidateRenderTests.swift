import Foundation
import SCLMTestSupport
import Testing

/// `sclm validate --render` through the built binary and a real Chromium: each RENDER rule tripped by a
/// deck built for it, the screenshots of a sample deck, and the missing-browser exit.
extension ChromiumTests {
    // Two minutes, as RenderBoundsTests: a rule run of five decks takes up to a minute on a loaded machine,
    // and a test's own limit cannot lengthen its suite's.
    @Suite(.serialized, .timeLimit(.minutes(2)))
    struct ValidateRenderTests {
        /// One deck that trips one rule.
        struct RuleCase: Sendable, CustomTestStringConvertible {
            let rule: String
            let severity: String
            let status: Int32
            /// `slide1.html`'s script.
            let script: String
            var extraArguments: [String] = []
            var testDescription: String { rule }
        }

        static let cases: [RuleCase] = [
            RuleCase(
                rule: "RENDER-CONSOLE-ERROR", severity: "warning", status: 0,
                script: "console.error('chart data missing');"),
            RuleCase(rule: "RENDER-LOAD-FAILED", severity: "error", status: 1, script: "fetch('data/chart.json');"),
            RuleCase(
                rule: "RENDER-REMOTE", severity: "warning", status: 0,
                script: "fetch('https://cdn.example.com/x.js').catch(function () {});"),
            RuleCase(
                rule: "RENDER-BRIDGE-ERROR", severity: "warning", status: 0,
                script: "StoryCLMBridge.Invoke('getFoo', {}, function () {});"),
            RuleCase(
                rule: "RENDER-TIMEOUT", severity: "error", status: 1,
                // Stuck, so it never loads: a polling slide can look settled when a loaded machine starves
                // its timers for 300 ms.
                script: "while (true) {}", extraArguments: ["--render-timeout", "10"]),
            RuleCase(rule: "RENDER-JS-ERROR", severity: "error", status: 1, script: "undefinedFunction();"),
        ]

        /// The cases checked together: one `sclm validate --render` over one deck per rule (one browser start,
        /// a browser context per package), but RENDER-TIMEOUT in a run of its own under its short limit.
        static let runs: [RuleRun] = [
            RuleRun(cases: cases.filter { $0.extraArguments.isEmpty }),
            RuleRun(cases: cases.filter { !$0.extraArguments.isEmpty }),
        ]

        /// The cases of one run, named by their rules.
        struct RuleRun: Sendable, CustomTestStringConvertible {
            let cases: [RuleCase]
            var testDescription: String { cases.map(\.rule).joined(separator: ", ") }
        }

        /// A three-slide deck on the raw StoryCLM transport whose second slide runs `script` (on line 5), in
        /// the folder `name`.
        static func deck(in folder: TemporaryDirectory, named name: String = "deck", script: String) throws -> String {
            let page: (String, String) -> String = { title, code in
                "<!DOCTYPE html>\n<html><head><title>\(title)</title><script src=\"js/storyclm.js\"></script></head>\n<body><h1>\(title)</h1>\n<script>\n\(code)\n</script>\n</body></html>\n"
            }
            try folder.write(page("index", "document.body.style.background = 'white';"), to: "\(name)/index.html")
            try folder.write(page("slide1", script), to: "\(name)/slide1.html")
            try folder.write(
                page("slide2", "StoryCLMBridge.Invoke('go', { slideName: 'index.html' }, function () {});"),
                to: "\(name)/slide2.html")
            try folder.write(PlayTests.rawTransport, to: "\(name)/js/storyclm.js")
            return folder.appending(name)
        }

        static func findings(_ result: ProcessResult) throws -> [[String: Any]] {
            try #require(packages(result).first?["findings"] as? [[String: Any]])
        }

        static func packages(_ result: ProcessResult) throws -> [[String: Any]] {
            let json = try #require(try result.json() as? [String: Any])
            return try #require(json["packages"] as? [[String: Any]])
        }

        @Test(arguments: runs) func eachRuleIsReported(_ ruleRun: RuleRun) async throws {
            let run = ruleRun.cases
            let folder = TemporaryDirectory()
            let decks = try run.map { try Self.deck(in: folder, named: $0.rule, script: $0.script) }
            let arguments = ["validate", "--render"] + (run.first?.extraArguments ?? []) + decks
            let json = try await ProcessRunner.sclm(arguments + ["--format", "json"], timeout: 240)
            #expect(json.status == run.map(\.status).max(), "\(json)")
            let packages = try Self.packages(json)
            for (ruleCase, deck) in zip(run, decks) {
                let package = try #require(packages.first { $0["path"] as? String == deck }, "\(json)")
                try Self.expectReported(ruleCase, in: package)
            }
        }

        /// The package of `ruleCase`'s deck reports its rule for `slide1.html` alone (JUnitReportTests checks
        /// how such findings read in JUnit, without a browser run of its own).
        static func expectReported(_ ruleCase: RuleCase, in package: [String: Any]) throws {
            #expect(package["passed"] as? Bool == (ruleCase.status == 0), "\(ruleCase.rule): \(package)")
            let all = try #require(package["findings"] as? [[String: Any]])
            let findings = all.filter { $0["rule"] as? String == ruleCase.rule }
            #expect(
                Set(findings.compactMap { $0["path"] as? String }) == ["slide1.html"], "only the slide that trips it")
            let finding = try #require(findings.first, "\(ruleCase.rule): \(package)")
            #expect(finding["severity"] as? String == ruleCase.severity)
            #expect(finding["class"] as? String == "content")
            #expect(finding["path"] as? String == "slide1.html")
            if ruleCase.rule == "RENDER-JS-ERROR" {
                #expect(finding["line"] as? Int == 5)
                #expect((finding["message"] as? String)?.contains("undefinedFunction") == true)
            }
        }

        @Test func zipWhoseSecondSlideThrowsNamesTheSlideAndLine() async throws {
            let folder = TemporaryDirectory()
            let deck = try Self.deck(in: folder, script: "var x = 1;\nthrow new Error('slide one is broken');")
            var zip = ZipBuilder()
            try zip.folder(contentsOf: deck)
            try zip.write(to: folder.appending("deck.zip"))
            let result = try await ProcessRunner.sclm([
                "validate", "--render", folder.appending("deck.zip"),
            ])
            #expect(result.status == 1, "\(result)")
            #expect(
                result.stdout.contains("error RENDER-JS-ERROR slide1.html:6: Error: slide one is broken"), "\(result)")
            #expect(!result.stdout.contains("RENDER-JS-ERROR index.html"))
        }

        @Test func cleanSampleDeckRendersWithoutErrorsAndOnePNGPerSlide() async throws {
            let folder = TemporaryDirectory()
            let deck = try SampleContent.assembledPath + "/northwind-vaccination"
            let shots = folder.appending("shots")
            let result = try await ProcessRunner.sclm(
                ["validate", "--render", "--screenshots", shots, "--viewport", "800x600", "--format", "json", deck])
            #expect(result.status == 0, "\(result)")
            #expect(try Self.findings(result).allSatisfy { $0["severity"] as? String == "warning" })
            let images = try FileManager.default.contentsOfDirectory(atPath: shots + "/northwind-vaccination").sorted()
            #expect(images == ["contact.png", "index.png", "schedule.png"])
            var seen = Set<Data>()
            for image in images {
                let data = try Data(contentsOf: URL(fileURLWithPath: shots + "/northwind-vaccination/" + image))
                #expect(Self.pngSize(data)?.width == 800 && Self.pngSize(data)?.height == 600, "\(image)")
                seen.insert(data)
            }
            #expect(seen.count == images.count, "different slides give different images")
            let sheet = try String(contentsOfFile: shots + "/index.html", encoding: .utf8)
            #expect(sheet.contains(#"src="northwind-vaccination/schedule.png""#))
        }

        /// Every demo deck renders with no finding, warnings included, in a throwaway home with no settings.
        @Test(.timeLimit(.minutes(4))) func everyDemoDeckRendersStrictClean() async throws {
            let root = try SampleContent.assembledPath
            let decks = try FileManager.default.contentsOfDirectory(atPath: root).sorted().filter {
                FileManager.default.fileExists(atPath: root + "/" + $0 + "/index.html")
            }
            try #require(!decks.isEmpty, "sample-content holds no decks")
            let result = try await ProcessRunner.sclm(
                ["validate", "--render", "--strict"] + decks.map { root + "/" + $0 }, timeout: 220)
            #expect(result.status == 0, "\(result)")
            #expect(result.stdout.contains("\(decks.count) packages checked: \(decks.count) passed"), "\(result)")
        }

        @Test func screenshotsOfPackagesNamedWithDotsStayInTheScreenshotsFolder() async throws {
            let folder = TemporaryDirectory()
            var zip = ZipBuilder()
            try zip.folder(contentsOf: try Self.deck(in: folder, script: ""))
            let packages = [folder.appending("...zip"), folder.appending("..zip")]
            for package in packages { try zip.write(to: package) }
            let out = folder.appending("out")
            try FileManager.default.createDirectory(atPath: out, withIntermediateDirectories: false)
            let result = try await ProcessRunner.sclm(
                ["validate", "--render", "--screenshots", out + "/shots", "--format", "json"] + packages)
            #expect(result.status == 0, "\(result)")
            // `...zip` once named its folder `..`: the images landed in `out`, beside `shots`.
            #expect(try FileManager.default.contentsOfDirectory(atPath: out) == ["shots"])
            let shots = try FileManager.default.contentsOfDirectory(atPath: out + "/shots").sorted()
            #expect(shots == ["index.html", "package", "package-2"])
            for name in ["package", "package-2"] {
                let images = try FileManager.default.contentsOfDirectory(atPath: out + "/shots/" + name).sorted()
                #expect(images == ["index.png", "slide1.png", "slide2.png"], "\(name)")
            }
        }

        @Test func aRenderLeavesNothingInTheTemporaryFolder() async throws {
            let folder = TemporaryDirectory()
            let scratch = folder.appending("tmp")
            try FileManager.default.createDirectory(atPath: scratch, withIntermediateDirectories: false)
            // Run as root, sclm starts the browser as nobody, which must be able to reach its profile in here.
            for path in [folder.path, scratch] { chmod(path, 0o711) }
            let deck = try SampleContent.assembledPath + "/northwind-vaccination"
            let socketFolders = {
                Set(
                    ((try? FileManager.default.contentsOfDirectory(atPath: "/tmp")) ?? []).filter {
                        $0.hasPrefix("org.chromium.Chromium.")
                    })
            }
            let before = socketFolders()
            let result = try await ProcessRunner.sclm(
                ["validate", "--render", deck], environment: ["TMPDIR": scratch])
            #expect(result.status == 0, "\(result)")
            // The browser profile, and Chromium's own socket folder inside it, are gone with the run; Chromium
            // did not fall back to /tmp for that folder either.
            #expect(try FileManager.default.contentsOfDirectory(atPath: scratch) == [])
            #expect(socketFolders().subtracting(before).isEmpty)
        }

        @Test func missingBrowserExits69() async throws {
            let folder = TemporaryDirectory()
            let deck = try Self.deck(in: folder, script: "")
            let result = try await ProcessRunner.sclm([
                "validate", "--render", "--browser", "/nonexistent", deck,
            ])
            #expect(result.status == 69, "\(result)")
            #expect(result.stderr.contains("apt-get install chromium"))
        }

        /// Width and height from a PNG's IHDR chunk, if `data` is a PNG.
        static func pngSize(_ data: Data) -> (width: Int, height: Int)? {
            let bytes = [UInt8](data.prefix(24))
            guard bytes.count == 24, bytes[0..<8] == [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] else {
                return nil
            }
            let number: (Int) -> Int = { offset in bytes[offset..<offset + 4].reduce(0) { $0 << 8 | Int($1) } }
            return (number(16), number(20))
        }
    }
}
