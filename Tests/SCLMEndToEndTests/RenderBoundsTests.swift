import Foundation
import SCLMTestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// `sclm validate --render` against hostile and awkward slides: a stuck renderer, huge files and
/// messages, a signal, dialogs, errors the page hides (in the page, its iframes and workers, and late
/// ones), two packages' storage, a `"go\n"` command and a windows-1251 script.
extension ChromiumTests {
    @Suite(.serialized, .timeLimit(.minutes(2)))
    struct RenderBoundsTests {
        /// A slide page on the raw StoryCLM transport (`js/storyclm.js`) running `body` after `markup`.
        static func page(_ title: String, _ body: String, markup: String = "") -> String {
            "<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\"><title>\(title)</title>"
                + "<script src=\"js/storyclm.js\"></script></head>\n<body><h1>\(title)</h1>\(markup)\n<script>\n"
                + body + "\n</script>\n</body></html>\n"
        }

        /// Writes `slides` (name → script) and the raw transport as a folder deck named `name`.
        static func deck(_ name: String, in folder: TemporaryDirectory, slides: [String: String]) throws -> String {
            for (slide, script) in slides { try folder.write(page(slide, script), to: "\(name)/\(slide)") }
            try folder.write(PlayTests.rawTransport, to: "\(name)/js/storyclm.js")
            return folder.appending(name)
        }

        /// The findings of package `index` of a JSON report, as (rule, path, message).
        static func findings(_ result: ProcessResult, package index: Int = 0) throws -> [(String, String, String)] {
            let json = try #require(try result.json() as? [String: Any], "\(result)")
            let packages = try #require(json["packages"] as? [[String: Any]])
            let findings = try #require(packages[index]["findings"] as? [[String: Any]])
            return findings.map {
                ($0["rule"] as? String ?? "", $0["path"] as? String ?? "", $0["message"] as? String ?? "")
            }
        }

        /// The findings of rendering `deck` with `options`, which fails it (exit status 1).
        static func failingFindings(_ deck: String, options: [String] = []) async throws -> [(String, String, String)] {
            let result = try await ProcessRunner.sclm(
                ["validate", "--render", "--format", "json"] + options + [deck], timeout: 90)
            #expect(result.status == 1, "\(result)")
            return try findings(result)
        }

        /// Creates a sparse file of `size` bytes (zeros) at `path`.
        static func sparseFile(_ path: String, size: Int64) {
            #expect(FileManager.default.createFile(atPath: path, contents: nil))
            #expect(truncate(path, off_t(size)) == 0)
        }

        @Test func aStuckRendererTimesOutAndTheOtherSlidesStillRender() async throws {
            let folder = TemporaryDirectory()
            let deck = try Self.deck(
                "stuck", in: folder,
                slides: [
                    "index.html": "document.body.style.background = 'white';", "stuck.html": "while (true) {}",
                    "zafter.html": "document.body.style.background = 'navy';",
                ])
            let shots = folder.appending("shots")
            let result = try await ProcessRunner.sclm(
                ["validate", "--render", "--render-timeout", "10", "--screenshots", shots, "--format", "json", deck],
                timeout: 90)
            #expect(result.status == 1, "\(result)")
            let findings = try Self.findings(result)
            #expect(findings.filter { $0.0 == "RENDER-TIMEOUT" }.map(\.1) == ["stuck.html"], "\(findings)")
            let images = try FileManager.default.contentsOfDirectory(atPath: shots + "/stuck").sorted()
            #expect(images == ["index.png", "zafter.png"], "the stuck slide has no image; the others do")
        }

        @Test func hiddenErrorsDialogsCharsetsAndFilteredNavigationAreReported() async throws {
            let folder = TemporaryDirectory()
            let deck = try Self.deck(
                "hostile", in: folder,
                slides: [
                    "index.html": "document.body.style.background = 'white';",
                    "swallowed.html": """
                    window.onerror = function () { return true; };
                    window.addEventListener("unhandledrejection", function (event) { event.preventDefault(); });
                    Promise.reject(new Error("rejected quietly"));
                    undefinedSwallowed();
                    """,
                    "worker.html": "new Worker('js/broken-worker.js');",
                    "late.html": """
                    addEventListener("load", function () {
                      setTimeout(function () { throw new Error("late error"); }, 400);
                    });
                    """,
                    "dialogs.html": """
                    alert("hello alert");
                    var sure = confirm("sure?");
                    var name = prompt("name?", "dflt");
                    if (sure !== true || name !== "dflt") { throw new Error("dialog answers: " + sure + " " + name); }
                    """,
                    "newline.html": "StoryCLMBridge.Invoke('go\\n', { slideName: 'nosuch.html' }, function () {});",
                    "control.html": "StoryCLMBridge.Invoke('go', { slideName: 'nosuch.html' }, function () {});",
                ])
            try folder.write("undefinedInWorker();\n", to: "hostile/js/broken-worker.js")
            // A real deck's script in windows-1251, loaded with a charset attribute.
            let script = try #require(
                "var word = \"Привет\";\nif (word !== \"\\u041f\\u0440\\u0438\\u0432\\u0435\\u0442\") { throw new Error(\"decoded as \" + word); }\n"
                    .data(using: .windowsCP1251))
            try script.write(to: URL(fileURLWithPath: folder.appending("hostile/js/t.js")))
            try folder.write(
                Self.page("cp1251", "", markup: "<script src=\"js/t.js\" charset=\"windows-1251\"></script>"),
                to: "hostile/cp1251.html")
            // 30 s to load: beside make test's other suites, a slide that opens three dialogs took more than
            // the default 15 s to finish loading.
            let result = try await ProcessRunner.sclm(
                ["validate", "--render", "--render-timeout", "30", "--format", "json", deck], timeout: 110)
            #expect(result.status == 1, "\(result)")
            let findings = try Self.findings(result)
            func messages(_ rule: String, _ slide: String) -> [String] {
                findings.filter { $0.0 == rule && $0.1 == slide }.map(\.2)
            }
            #expect(messages("RENDER-JS-ERROR", "swallowed.html").contains { $0.contains("undefinedSwallowed") })
            #expect(messages("RENDER-JS-ERROR", "swallowed.html").contains { $0.contains("rejected quietly") })
            #expect(messages("RENDER-JS-ERROR", "worker.html").contains { $0.contains("undefinedInWorker") })
            #expect(messages("RENDER-JS-ERROR", "late.html").contains { $0.contains("late error") }, "\(findings)")
            #expect(
                Set(messages("RENDER-DIALOG", "dialogs.html"))
                    == [
                        "alert: hello alert (answered OK)", "confirm: sure? (answered OK)",
                        "prompt: name? (answered OK)",
                    ])
            #expect(messages("RENDER-BRIDGE-ERROR", "newline.html").isEmpty, "\"go\\n\" is a go: filtered")
            #expect(messages("RENDER-BRIDGE-ERROR", "control.html").isEmpty, "a plain go is filtered too")
            let quiet = ["index.html", "cp1251.html", "dialogs.html", "newline.html", "control.html"]
            let noisy = findings.filter { quiet.contains($0.1) && $0.0 != "RENDER-DIALOG" }
            #expect(noisy.isEmpty, "\(noisy)")
            #expect(!findings.contains { $0.0 == "RENDER-TIMEOUT" }, "\(findings)")
        }

        /// A script that swallows its errors (`onerror` returning true, rejections prevented), then throws
        /// `undefinedIn<place>` and rejects with `rejected in <place>`; it runs in a window or a worker.
        static func swallowing(_ place: String) -> String {
            """
            self.onerror = function () { return true; };
            self.addEventListener("unhandledrejection", function (event) { event.preventDefault(); });
            Promise.reject(new Error("rejected in \(place)"));
            undefinedIn\(place)();
            """
        }

        /// A script that adds an iframe showing `source`, with the `sandbox` attribute `sandbox` when given.
        static func iframe(_ source: String, sandbox: String? = nil) -> String {
            """
            var frame = document.createElement("iframe");
            \(sandbox.map { "frame.setAttribute(\"sandbox\", \"\($0)\");" } ?? "")
            frame.src = "\(source)";
            document.body.appendChild(frame);
            """
        }

        /// Errors swallowed in a same-origin iframe (the page's process: the page's script runs there
        /// too), in a sandboxed iframe (which Chromium puts in a process of its own: a target of its own,
        /// given the script when it attaches) and inside a worker (whose `onerror` keeps them from the
        /// `Worker` object) are reported for the slide that holds them.
        @Test func errorsSwallowedInIframesAndWorkersAreReported() async throws {
            let folder = TemporaryDirectory()
            let deck = try Self.deck(
                "framed", in: folder,
                slides: [
                    "index.html": "document.body.style.background = 'white';",
                    "same.html": Self.iframe("frames/same.html"),
                    "isolated.html": Self.iframe("frames/isolated.html", sandbox: "allow-scripts"),
                    "worker.html": "new Worker('js/swallowing-worker.js');",
                ])
            try folder.write(Self.page("same", Self.swallowing("SameOriginFrame")), to: "framed/frames/same.html")
            try folder.write(
                Self.page("isolated", Self.swallowing("IsolatedFrame")), to: "framed/frames/isolated.html")
            try folder.write(Self.swallowing("Worker"), to: "framed/js/swallowing-worker.js")
            let findings = try await Self.failingFindings(deck)
            for (slide, place) in [
                ("same.html", "SameOriginFrame"), ("isolated.html", "IsolatedFrame"), ("worker.html", "Worker"),
            ] {
                let errors = findings.filter { $0.0 == "RENDER-JS-ERROR" && $0.1 == slide }.map(\.2)
                #expect(errors.contains { $0.contains("undefinedIn\(place) is not defined") }, "\(slide): \(findings)")
                #expect(errors.contains { $0.contains("rejected in \(place)") }, "\(slide): \(findings)")
            }
            #expect(!findings.contains { $0.1 == "index.html" }, "\(findings)")
        }

        /// With the default late window (3 s from the slide's last frame or worker start), an error 2.5 s after
        /// load is heard, and so is one a worker started 1 s after load throws 2.5 s after load: the worker's
        /// start opens its own window, however late a loaded machine starts it.
        @Test func lateErrorsOfThePageAndOfALateWorkerAreHeardByDefault() async throws {
            let folder = TemporaryDirectory()
            let deck = try Self.deck(
                "slow", in: folder,
                slides: [
                    "index.html": """
                    addEventListener("load", function () {
                      setTimeout(function () { throw new Error("thrown 2.5 s after load"); }, 2500);
                    });
                    """,
                    "worker.html": """
                    addEventListener("load", function () {
                      setTimeout(function () { new Worker("js/late-worker.js"); }, 1000);
                    });
                    """,
                ])
            try folder.write(
                "setTimeout(function () { throw new Error('worker thrown 2.5 s after load'); }, 1500);\n",
                to: "slow/js/late-worker.js")
            let findings = try await Self.failingFindings(deck)
            #expect(
                findings.contains {
                    $0.0 == "RENDER-JS-ERROR" && $0.1 == "index.html" && $0.2.contains("thrown 2.5 s after load")
                }, "\(findings)")
            #expect(
                findings.contains {
                    $0.0 == "RENDER-JS-ERROR" && $0.1 == "worker.html"
                        && $0.2.contains("worker thrown 2.5 s after load")
                }, "\(findings)")
            #expect(!findings.contains { $0.0 == "RENDER-TIMEOUT" }, "\(findings)")
        }

        @Test func twoPackagesOfOneRunDoNotShareStorage() async throws {
            let folder = TemporaryDirectory()
            let first = try Self.deck(
                "first", in: folder,
                slides: [
                    "index.html": """
                    localStorage.setItem("secret", "first");
                    document.cookie = "secret=first; max-age=3600";
                    if (localStorage.getItem("secret") !== "first") { throw new Error("no storage at all"); }
                    """
                ])
            let second = try Self.deck(
                "second", in: folder,
                slides: [
                    "index.html": """
                    if (localStorage.getItem("secret") !== null) { throw new Error("saw localStorage of the first"); }
                    if (document.cookie.indexOf("secret=") !== -1) { throw new Error("saw the cookie of the first"); }
                    """
                ])
            let result = try await ProcessRunner.sclm(
                ["validate", "--render", "--format", "json", first, second], timeout: 90)
            #expect(result.status == 0, "\(result)")
            #expect(try Self.findings(result, package: 0).isEmpty)
            #expect(try Self.findings(result, package: 1).isEmpty)
        }

        @Test func sigtermDuringARenderExits130AndTheReportSaysCancelled() async throws {
            let folder = TemporaryDirectory()
            let deck = try Self.deck(
                "busy", in: folder,
                slides: ["index.html": "setInterval(function () { fetch('index.html', { cache: 'no-store' }); }, 40);"])
            let json = try await Self.renderUntilSIGTERM(deck, format: "json")
            #expect(json.status == 130, "\(json)")
            let report = try #require(try json.json() as? [String: Any], "\(json)")
            #expect(report["cancelled"] as? Bool == true)
            let package = try #require((report["packages"] as? [[String: Any]])?.first)
            #expect(package["passed"] as? Bool == false)
            #expect(package["cancelled"] as? Bool == true)
            let junit = try await Self.renderUntilSIGTERM(deck, format: "junit")
            #expect(junit.status == 130, "\(junit)")
            #expect(junit.stdout.contains(#"<error type="cancelled""#), "\(junit.stdout)")
            #expect(junit.stdout.contains(#"<testcase name="RENDER-JS-ERROR""#), "the render rules are listed")
        }

        /// Renders `deck` and sends SIGTERM once a page renders (the browser has a renderer): in the middle
        /// of a slide that never settles.
        static func renderUntilSIGTERM(_ deck: String, format: String) async throws -> ProcessResult {
            let process = try ProcessRunner.startSclm(
                ["validate", "--render", "--render-timeout", "60", "--format", format, deck])
            let pid = process.pid
            let sent = await process.send(
                SIGTERM, when: { ProcessMemory.hasDescendant(of: pid, withArgument: "--type=renderer") }, timeout: 60)
            #expect(sent)
            return await process.result(timeout: 60)
        }

        @Test func hugeConsoleMessagesGiveASmallReport() async throws {
            let folder = TemporaryDirectory()
            // A message four times the 8 MiB DevTools event limit (100 MiB under `make soak`) is skipped unread
            // (Chromium takes seconds to send one, so one of them); 1 MiB ones are read, cut, and counted past
            // the slide's budget.
            let mebibytes = Soak.iterations(32, soak: 100)
            let loud = try Self.deck(
                "loud", in: folder,
                slides: [
                    "index.html": """
                    var big = new Array(\(mebibytes) * 1024 * 1024 + 1).join("x");
                    console.error(0 + big);
                    """
                ])
            let medium = try Self.deck(
                "medium", in: folder,
                slides: [
                    "index.html": """
                    var text = new Array(1024 * 1024 + 1).join("x");
                    for (var i = 0; i < 60; i++) { console.error(i + text); }
                    """
                ])
            let process = try ProcessRunner.startSclm(
                ["validate", "--render", "--render-timeout", "60", "--format", "json", loud, medium])
            let peak = await ProcessMemory.watchPeak(of: process)
            let result = await process.result(timeout: 110)
            #expect(result.status == 0, "\(result.status) \(result.stderr)")
            #expect(peak > 0 && peak < 128 << 20, "sclm's peak RSS was \(peak >> 20) MiB")
            #expect(result.stdout.utf8.count < 128 << 10, "\(result.stdout.utf8.count) bytes")
            let messages = try Self.findings(result).filter { $0.0 == "RENDER-CONSOLE-ERROR" }.map(\.2)
            #expect(
                messages.contains {
                    $0.contains("xxx… (a message of \(String(mebibytes << 20).prefix(4))")
                        && $0.hasSuffix("bytes, too large to read: cut)")
                },
                "\(messages.map { $0.suffix(80) })")
            let mediumMessages = try Self.findings(result, package: 1).filter { $0.0 == "RENDER-CONSOLE-ERROR" }.map(
                \.2)
            #expect(
                mediumMessages.contains { $0.hasPrefix("console.error: 0xxx") && $0.hasSuffix("(1046577 bytes cut)") },
                "\(mediumMessages.map { $0.suffix(80) })")
            #expect(mediumMessages.contains { $0.contains("more page messages") && $0.contains("were cut") })
        }

        @Test func aDeckFetchingLargeFilesWholeKeepsSclmUnder128MiB() async throws {
            let folder = TemporaryDirectory()
            let deck = try Self.deck("large", in: folder, slides: ["index.html": Self.largeFetches(then: "")])
            Self.sparseFile(folder.appending("large/big.bin"), size: 250_000_000)
            Self.sparseFile(folder.appending("large/medium.bin"), size: 30 << 20)
            let process = try ProcessRunner.startSclm(
                ["validate", "--render", "--render-timeout", "60", "--format", "json", deck])
            let peak = await ProcessMemory.watchPeak(of: process)
            let result = await process.result(timeout: 110)
            #expect(result.status == 0, "\(result)")
            let findings = try Self.findings(result)
            #expect(findings.map(\.0) == ["RENDER-TOO-LARGE"], "\(findings)")
            #expect(findings.first?.2.contains("stop at 32 MiB") == true)
            #expect(peak > 0 && peak < 128 << 20, "sclm's peak RSS was \(peak >> 20) MiB")
        }

        /// A script that fetches `big.bin` 24 times and `medium.bin` 6 times at once, all without `Range`,
        /// checks what came back (413 for the big one, every byte of the medium one), then runs `next`.
        static func largeFetches(then next: String) -> String {
            """
            var names = [];
            for (var i = 0; i < 24; i++) { names.push("big.bin"); }
            for (var j = 0; j < 6; j++) { names.push("medium.bin"); }
            Promise.all(names.map(function (name) {
              return fetch(name).then(function (response) {
                return response.arrayBuffer().then(function (body) { return name + " " + response.status + " " + body.byteLength; });
              });
            })).then(function (answers) {
              var wrong = answers.filter(function (answer) {
                return answer.indexOf("big.bin 413 ") !== 0 && answer !== "medium.bin 200 31457280";
              });
              if (wrong.length > 0) { throw new Error("unexpected answers: " + wrong.join(", ")); }
              \(next)
            });
            """
        }
    }
}
