import Foundation
import SCLMTestSupport
import Testing

/// `sclm play PATH` through the built binary and a real Chromium: a package folder or a zip built at test
/// time, played from a scratch home that is gone afterwards, the user's home untouched.
extension ChromiumTests {
    @Suite(.serialized, .timeLimit(.minutes(1)))
    struct PlayPathTests {
        /// How the deck is given to `sclm play`.
        enum Form: String, Sendable, CaseIterable, CustomTestStringConvertible {
            case folder, zip
            var testDescription: String { rawValue }
        }

        /// A user's home, a `TMPDIR` and a deck (`index.html` clean, `error.html` throwing late) in one
        /// temporary folder.
        struct Desk {
            let folder = TemporaryDirectory(prefix: "sclm-play-path")
            /// The folder `SCLM_HOME` names: exists and is empty.
            let home: String
            /// The folder `TMPDIR` names, where the scratch home and the browser profile go.
            let scratch: String
            /// The deck as a folder.
            let deck: String

            init() throws {
                home = folder.appending("home")
                scratch = folder.appending("tmp")
                deck = folder.appending("deck")
                for path in [home, scratch] {
                    try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: false)
                }
                // Run as root, sclm starts the browser as nobody, which must be able to reach its profile in here.
                for path in [folder.path, scratch] { chmod(path, 0o711) }
                var files = DeckFiles.librarySlide("StoryCLM.CustomEvents.Set('opened', 'yes', function () {});")
                files.add(
                    "error.html",
                    DeckFiles.slide(
                        "error", scripts: [], body: #"setTimeout(() => { throw new Error("boom") }, 200);"#))
                try files.write(to: deck)
            }

            /// The deck in `form`: its folder, or a zip of it built now.
            func package(_ form: Form) throws -> String {
                guard form == .zip else { return deck }
                var zip = ZipBuilder()
                try zip.folder(contentsOf: deck)
                let path = folder.appending("deck.zip")
                try zip.write(to: path)
                return path
            }

            /// The environment of every run: this home and this `TMPDIR`.
            var environment: [String: String] { ["SCLM_HOME": home, "TMPDIR": scratch] }

            /// Runs `sclm play` with `arguments` and waits for it.
            func play(_ arguments: [String]) async throws -> ProcessResult {
                try await ProcessRunner.sclm(["play"] + arguments, environment: environment, timeout: 40)
            }

            /// Nothing is left of the run: the user's home is still empty and `TMPDIR` holds no scratch home
            /// and no browser profile.
            func expectNoTrace(_ result: ProcessResult) throws {
                #expect(try FileManager.default.contentsOfDirectory(atPath: home) == [], "\(result)")
                #expect(try FileManager.default.contentsOfDirectory(atPath: scratch) == [], "\(result)")
            }
        }

        /// `--duration` counts from the start, the browser's included: 20 s, as `make test`'s other suites can
        /// hold a browser start and a load past 5 s (the error ends the run at once anyway).
        @Test(arguments: Form.allCases) func anUncaughtErrorOnTheGivenSlideFailsTheRun(_ form: Form) async throws {
            let desk = try Desk()
            let result = try await desk.play([
                try desk.package(form), "--slide", "error.html", "--duration", "20", "--fail-on-error",
            ])
            #expect(result.status == 1, "\(result)")
            #expect(result.stdout.contains("error: uncaught page error:"), "\(result)")
            #expect(result.stdout.contains("boom"), "\(result)")
            try desk.expectNoTrace(result)
        }

        /// The clean slide talks to the bridge as an installed presentation does, and the folder is served in
        /// place: it is still there, whole, after the scratch home that linked it was deleted.
        @Test func aCleanFolderPlaysItsDurationAndLeavesNoTrace() async throws {
            let desk = try Desk()
            let result = try await desk.play(["--json", desk.deck, "--duration", "2", "--fail-on-error"])
            #expect(result.status == 0, "\(result)")
            #expect(result.stdout.contains(#""Event":"slideChanged""#), "\(result)")
            #expect(result.stdout.contains(#""Play":"played""#), "\(result)")
            #expect(!result.stdout.contains(#""Page":"#), "\(result)")
            try desk.expectNoTrace(result)
            let files = try FileManager.default.subpathsOfDirectory(atPath: desk.deck).sorted()
            #expect(files == ["error.html", "index.html", "js", "js/storyclm.js"])
        }

        @Test func ctrlCEndsAZipRunWith130AndRemovesItsScratchHome() async throws {
            let desk = try Desk()
            let process = try ProcessRunner.startSclm(
                ["--json", "play", try desk.package(.zip)], environment: desk.environment)
            // The host's first slide event: the presentation is open, its session begun in the scratch home.
            let running = try await process.waitForOutput { $0.contains(#""Event":"slideChanged""#) }
            #expect(running, "\(process.stdout)\n\(process.stderr)")
            process.send(SIGINT)
            let result = await process.result(timeout: 20)
            #expect(result.status == 130, "\(result)")
            #expect(result.stdout.contains(#"{"Play":"cancelled","cancelled":true}"#), "\(result)")
            try desk.expectNoTrace(result)
        }
    }
}

/// `sclm play PATH` mistakes, refused before a scratch home or a browser is made (`--browser` names none, so
/// reaching the browser would exit 69).
@Suite(.tags(.large)) struct PlayPathMistakeTests {
    struct Mistake: Sendable, CustomTestStringConvertible {
        let name: String
        /// The arguments after `play`, given the test's folder.
        let arguments: @Sendable (TemporaryDirectory) throws -> [String]
        let status: Int32
        let message: String
        var testDescription: String { name }
    }

    /// A folder holding a one-slide package.
    static func deck(in folder: TemporaryDirectory) throws -> String {
        try folder.write(DeckFiles.slide("index", scripts: [], body: ""), to: "deck/index.html")
        return folder.appending("deck")
    }

    static let mistakes = [
        Mistake(
            name: "PATH and --presentation", arguments: { [try deck(in: $0), "--presentation", "1"] }, status: 64,
            message: "not both"),
        Mistake(name: "neither", arguments: { _ in [] }, status: 64, message: "missing PATH or --presentation"),
        Mistake(
            name: "--config with --presentation",
            arguments: { _ in ["--presentation", "1", "--config", "osam.versionCode=100"] }, status: 64,
            message: "--config needs PATH"),
        Mistake(
            name: "an unknown --config setting",
            arguments: { [try deck(in: $0), "--config", "osam.nothing=1"] }, status: 64,
            message: "--config: unknown setting 'osam.nothing'"),
        Mistake(
            name: "a missing path", arguments: { [$0.appending("nowhere.zip")] }, status: 74,
            message: "nowhere.zip: No such file or directory"),
        Mistake(
            name: "a FIFO",
            arguments: { folder in
                try #require(mkfifo(folder.appending("deck.zip"), 0o600) == 0)
                return [folder.appending("deck.zip")]
            }, status: 66, message: "is not a file or folder"),
        Mistake(
            name: "a zip breaking a safety rule",
            arguments: { folder in
                var zip = ZipBuilder()
                zip.file("index.html", DeckFiles.slide("index", scripts: [], body: ""))
                zip.symlink("escape", to: "/etc")
                try zip.write(to: folder.appending("deck.zip"))
                return [folder.appending("deck.zip")]
            }, status: 1, message: "refused: ENTRY-SYMLINK"),
    ]

    @Test(arguments: mistakes) func isRefusedWithItsReasonAndStatus(_ mistake: Mistake) async throws {
        let folder = TemporaryDirectory()
        let home = folder.appending("home")
        let result = try await ProcessRunner.sclm(
            ["play", "--browser", "/nonexistent/chromium"] + mistake.arguments(folder),
            environment: ["SCLM_HOME": home, "TMPDIR": folder.path])
        #expect(result.status == mistake.status, "\(result)")
        #expect(result.stderr.contains(mistake.message), "\(result)")
        #expect(!FileManager.default.fileExists(atPath: home), "\(result)")
        let left = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.hasPrefix("sclm-") }
        #expect(left.isEmpty, "\(result)")
    }
}
