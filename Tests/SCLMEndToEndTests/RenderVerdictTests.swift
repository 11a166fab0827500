import Foundation
import SCLMTestSupport
import Testing

/// `validate --render` as a verdict a release can be gated on: every slide rendered or said why not, one
/// stuck slide never taking the others with it, the statuses in every report and on the contact sheet,
/// and what a slide tries that request interception never sees (sockets, errors as it navigates away).
extension ChromiumTests {
    @Suite(.serialized, .timeLimit(.minutes(3)))
    struct RenderVerdictTests {
        /// A slide script that starts spinning (`while (1) {}`) 300 ms after load.
        static let spinsAfterLoad =
            "addEventListener('load', function () { setTimeout(function () { while (1) {} }, 300); });"
        /// A slide script that keeps the renderer busy with a short fetch loop, then spins.
        static let fetchesThenSpins = """
            addEventListener('load', function () {
              var n = 0;
              (function next() { fetch('index.html?n=' + n).then(function () { if (++n < 30) { next(); } else { while (1) {} } }); })();
            });
            """

        /// The JSON report of rendering `deck` with `options`.
        static func render(_ deck: String, _ options: [String] = [], environment: [String: String] = [:])
            async throws -> (status: Int32, package: [String: Any])
        {
            let result = try await ProcessRunner.sclm(
                ["validate", "--render", "--format", "json"] + options + [deck], environment: environment, timeout: 240)
            let json = try #require(try result.json() as? [String: Any], "\(result)")
            let package = try #require((json["packages"] as? [[String: Any]])?.first, "\(result)")
            return (result.status, package)
        }

        /// Each slide's status in a package of a JSON report.
        static func statuses(_ package: [String: Any]) throws -> [String: String] {
            let results = try #require(package["slideResults"] as? [[String: Any]], "\(package)")
            return Dictionary(
                uniqueKeysWithValues: results.map { ($0["slide"] as? String ?? "", $0["status"] as? String ?? "") })
        }

        /// The findings of a package of a JSON report, as (rule, path, message).
        static func findings(_ package: [String: Any]) -> [(rule: String, path: String, message: String)] {
            (package["findings"] as? [[String: Any]] ?? []).map {
                ($0["rule"] as? String ?? "", $0["path"] as? String ?? "", $0["message"] as? String ?? "")
            }
        }

        /// A clean slide beside two that spin after load: it is rendered with its picture, both spinning ones
        /// are RENDER-TIMEOUT without one, the package fails, and the contact sheet links only what exists.
        @Test func aHungDeckFailsAndItsCleanSlideStillRenders() async throws {
            let folder = TemporaryDirectory()
            let deck = try RenderBoundsTests.deck(
                "hung", in: folder,
                slides: [
                    "index.html": "document.body.style.background = 'white';", "spin.html": Self.spinsAfterLoad,
                    "zfetch.html": Self.fetchesThenSpins,
                ])
            let shots = folder.appending("shots")
            // 10 s, not the 5 s a quiet machine needs: beside make test's other suites (20 sclm homes syncing
            // through nginx) the clean slide once took longer than 5 s to load and settle next to two spinners.
            let (status, package) = try await Self.render(deck, ["--render-timeout", "10", "--screenshots", shots])
            #expect(status == 1)
            #expect(package["passed"] as? Bool == false)
            #expect(
                try Self.statuses(package)
                    == ["index.html": "rendered", "spin.html": "timedOut", "zfetch.html": "timedOut"])
            let counts = try #require(package["slides"] as? [String: Int])
            #expect(counts == ["total": 3, "rendered": 1, "timedOut": 2, "crashed": 0, "notReached": 0])
            let timeouts = Self.findings(package).filter { $0.rule == "RENDER-TIMEOUT" }.map(\.path).sorted()
            #expect(timeouts == ["spin.html", "zfetch.html"])
            #expect(try FileManager.default.contentsOfDirectory(atPath: shots + "/hung") == ["index.png"])
            let sheet = try String(contentsOfFile: shots + "/index.html", encoding: .utf8)
            #expect(sheet.ranges(of: "<img ").count == 1, "\(sheet)")
            #expect(sheet.ranges(of: "RENDER-TIMEOUT</div>").count == 2, "\(sheet)")
        }

        /// One kind of slide in a random deck, and the status it must end with.
        enum Kind: CaseIterable {
            case clean, throwing, spinning, crashing, slowLoading

            var script: String {
                switch self {
                case .clean: "document.body.style.background = 'white';"
                case .throwing: "setTimeout(function () { undefinedInARandomDeck(); }, 100);"
                case .spinning: RenderVerdictTests.spinsAfterLoad
                case .crashing: "document.title = 'crashed by the test hook';"
                // Half a second of script before the load: beside make test's other suites a 1.5 s loop took
                // more than the 10 s --render-timeout of wall time.
                case .slowLoading: "var until = Date.now() + 500; while (Date.now() < until) {}"
                }
            }

            var status: String {
                switch self {
                case .clean, .throwing, .slowLoading: "rendered"
                case .spinning: "timedOut"
                case .crashing: "crashed"
                }
            }
        }

        /// Random decks of clean, throwing, spinning, crashing (the debug build's `SCLM_DEBUG_CRASH_SLIDES`
        /// sends `Page.crash`) and slow-loading slides, in random order: every slide is listed with the status
        /// its kind must end with, a picture exactly when rendered, a finding for each one not rendered, and
        /// "passed" only when all were rendered without errors.
        @Test func everySlideOfARandomDeckIsRenderedOrSaysWhyNot() async throws {
            var random = SeededRandom(seed: 20_261_203)
            for round in 0..<Soak.iterations(2, soak: 25) {
                // The first deck has every kind once, in a random order; the others random kinds.
                let kinds =
                    round == 0
                    ? Kind.allCases.shuffled(using: &random)
                    : (0..<Int.random(in: 2...5, using: &random)).map { _ in
                        Kind.allCases.randomElement(using: &random) ?? .clean
                    }
                var slides: [String: Kind] = ["index.html": .clean]
                for (index, kind) in kinds.enumerated() { slides["s\(round)-\(index).html"] = kind }
                try await check(slides, round: round)
            }
        }

        private func check(_ slides: [String: Kind], round: Int) async throws {
            let folder = TemporaryDirectory()
            let deck = try RenderBoundsTests.deck("deck", in: folder, slides: slides.mapValues(\.script))
            let shots = folder.appending("shots")
            let crashing = slides.filter { $0.value == .crashing }.keys.sorted().joined(separator: ",")
            let (status, package) = try await Self.render(
                deck, ["--render-timeout", "10", "--render-settle", "1", "--screenshots", shots],
                environment: ["SCLM_DEBUG_CRASH_SLIDES": crashing])
            let statuses = try Self.statuses(package)
            #expect(statuses == slides.mapValues(\.status), "round \(round): \(slides)")
            let images = Set((try? FileManager.default.contentsOfDirectory(atPath: shots + "/deck")) ?? [])
            let findings = Self.findings(package)
            for (slide, status) in statuses {
                let png = (slide as NSString).deletingPathExtension + ".png"
                #expect(images.contains(png) == (status == "rendered"), "round \(round): \(slide) \(status)")
                let rule = ["timedOut": "RENDER-TIMEOUT", "crashed": "RENDER-CRASHED"][status]
                if let rule { #expect(findings.contains { $0.rule == rule && $0.path == slide }, "\(slide)") }
            }
            let clean = slides.values.allSatisfy { $0 == .clean || $0 == .slowLoading }
            #expect((package["passed"] as? Bool) == clean, "round \(round): \(slides)")
            #expect(status == (clean ? 0 : 1))
        }

        /// A WebSocket (which request interception never sees) is a refused request; an error thrown in a
        /// `pagehide` handler as the slide navigates itself away is reported for that slide, at its line.
        @Test func socketsAndErrorsOnTheWayOutAreReported() async throws {
            let folder = TemporaryDirectory()
            let deck = try RenderBoundsTests.deck(
                "outward", in: folder,
                slides: [
                    "index.html": "var s = new WebSocket('ws://127.0.0.1:9/live'); s.onerror = function () {};",
                    "away.html": """
                    addEventListener('pagehide', function () { throw new Error('thrown on the way out'); });
                    setTimeout(function () { location = 'about:blank'; }, 200);
                    """,
                ])
            let (status, package) = try await Self.render(deck)
            #expect(status == 1)
            let findings = Self.findings(package)
            #expect(
                findings.contains {
                    $0.rule == "RENDER-REMOTE" && $0.path == "index.html"
                        && $0.message.contains("ws://127.0.0.1:9/live")
                }, "\(findings)")
            #expect(
                findings.contains {
                    $0.rule == "RENDER-JS-ERROR" && $0.path == "away.html"
                        && $0.message.contains("thrown on the way out")
                }, "\(findings)")
        }

        /// Twenty slides, more than load at once, so later slides load in the pages of earlier ones (a page's
        /// `sessionStorage` outlives its slide, which shows it): every slide's error is reported for that
        /// slide, and the error its `pagehide` handler throws as its page moves on to the next for none.
        @Test func slidesOnReusedPagesReportOnlyTheirOwnErrors() async throws {
            let folder = TemporaryDirectory()
            let names = (1...20).map { String(format: "s%02d.html", $0) }
            let deck = try RenderBoundsTests.deck(
                "reused", in: folder,
                slides: Dictionary(
                    uniqueKeysWithValues: names.map { name in
                        (
                            name,
                            """
                            var before = sessionStorage.getItem('slides') || '';
                            sessionStorage.setItem('slides', before + '\(name);');
                            console.error('said by \(name) after ' + (before ? 'a slide' : 'none'));
                            addEventListener('pagehide', function () { throw new Error('left \(name)'); });
                            """
                        )
                    }))
            let (status, package) = try await Self.render(deck, ["--render-settle", "0"])
            #expect(status == 1)
            let findings = Self.findings(package).filter { $0.rule.hasPrefix("RENDER-") }
            #expect(try Self.statuses(package).values.allSatisfy { $0 == "rendered" }, "\(package)")
            for name in names {
                let own = findings.filter { $0.path == name }
                #expect(own.map(\.rule) == ["RENDER-CONSOLE-ERROR"], "\(name): \(own)")
                #expect(own.first?.message.contains("said by \(name) ") == true, "\(name): \(own)")
            }
            #expect(findings.contains { $0.message.contains("after a slide") }, "no page was reused: \(findings)")
        }

        /// A file a static `REF-MISSING` already names (with the referring file and line) is not reported
        /// again as `RENDER-LOAD-FAILED` when the slide requests it.
        @Test func aMissingFileIsReportedOnceWithItsLine() async throws {
            let folder = TemporaryDirectory()
            let deck = try RenderBoundsTests.deck("refs", in: folder, slides: ["index.html": ""])
            try folder.write(
                RenderBoundsTests.page("index", "", markup: "<img src=\"img/chart.png\" alt=\"\">"),
                to: "refs/index.html")
            let (status, package) = try await Self.render(deck)
            #expect(status == 1)
            let about = Self.findings(package).filter { $0.message.contains("chart.png") }
            #expect(about.map(\.rule) == ["REF-MISSING"], "\(about)")
        }
    }
}
