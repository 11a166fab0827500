import Foundation
import SCLMCore
import SCLMTestSupport
import Testing

/// `sclm play --headless` through the built binary and a real Chromium.
extension ChromiumTests {
    @Suite(.serialized, .timeLimit(.minutes(1)))
    struct PlayTests {
        /// A temporary home with a three-slide presentation whose files are `deck`.
        struct PlayHome {
            let folder = TemporaryDirectory(prefix: "sclm-play")
            let home: Home
            let fixture = InstalledPresentationFixture()

            init(_ deck: DeckFiles) throws {
                home = Home(root: folder.appending("home"))
                try fixture.install(in: home)
                try deck.write(to: fixture.sourcesDirectory(in: home))
            }

            func play(_ arguments: [String] = [], timeout: TimeInterval = 40) async throws -> ProcessResult {
                try await ProcessRunner.sclm(
                    ["--json", "play", "--presentation", String(fixture.presentationId), "--headless"] + arguments,
                    home: home.root, timeout: timeout)
            }

            func sql(_ query: String) throws -> String {
                try ProcessRunner.sql(query, in: home.databasePath)
            }

            /// The session ran to the end and logged the three slides in order.
            func expectCompleteSessionThroughEverySlide() throws {
                #expect(try sql("SELECT state FROM sessions") == "[[1]]")
                #expect(
                    try sql("SELECT slideName FROM session_actions ORDER BY created, rowid")
                        == #"[["index.html"], ["slide1.html"], ["slide2.html"]]"#)
            }
        }

        /// Slides that walk index → slide1 → slide2 with `StoryCLM.Go` and close with `Presentation.Close(1)`.
        static func walkingDeck(scripts: [String], go: (String) -> String, close: String) -> DeckFiles {
            var deck = DeckFiles()
            deck.add("index.html", DeckFiles.slide("index", scripts: scripts, body: go("slide1.html")))
            deck.add("slide1.html", DeckFiles.slide("slide1", scripts: scripts, body: go("slide2.html")))
            deck.add("slide2.html", DeckFiles.slide("slide2", scripts: scripts, body: close))
            return deck
        }

        /// Plays a deck on the project's library whose slides move on with `go` and whose last slide closes
        /// the presentation; expects exit 0 and a complete session through every slide.
        static func expectLibraryDeckRunsToTheEnd(go: (String) -> String) async throws {
            var deck = walkingDeck(scripts: ["js/storyclm.js"], go: go, close: "StoryCLM.Presentation.Close(1);")
            deck.add("js/storyclm.js", DeckFiles.projectLibrary)
            let play = try PlayHome(deck)
            let result = try await play.play()
            #expect(result.status == 0, "\(result)")
            #expect(result.stdout.contains(#""Event":"presentationClosed""#))
            try play.expectCompleteSessionThroughEverySlide()
        }

        @Test func deckUsingTheLibraryNavigatesItselfAndCloses() async throws {
            try await Self.expectLibraryDeckRunsToTheEnd { "StoryCLM.Go(\"\($0)\", function () {});" }
        }

        /// What storyclm.js 2.x does, and nothing more: its own queue and `StoryCLMBridge`, a hidden iframe
        /// pinged with `storyclm:SCLM_QUEUE`, answers through `StoryCLMBridge.StoryCLMHandler(json)`.
        static let rawTransport = """
            (function () {
              if (window.StoryCLMBridge) { return; }
              var queue = [], callbacks = {}, next = 1;
              var frame = document.createElement("iframe");
              frame.style.display = "none";
              document.documentElement.appendChild(frame);
              window.StoryCLMBridge = {
                Invoke: function (command, data, callback) {
                  var message = { Command: command, Data: data };
                  if (callback) { message.GUID = "GUID_" + (next++) + "f00d"; callbacks[message.GUID] = callback; }
                  queue.push(message);
                  frame.src = "storyclm:SCLM_QUEUE";
                },
                GetQueue: function () { var text = JSON.stringify(queue); queue = []; return text; },
                StoryCLMHandler: function (json) {
                  setTimeout(function () {
                    var message = JSON.parse(json);
                    if (!message.GUID || typeof callbacks[message.GUID] !== "function") { return; }
                    callbacks[message.GUID](message);
                    delete callbacks[message.GUID];
                  }, 1);
                }
              };
            })();
            """

        @Test func deckSpeakingOnlyTheRawQueueTransportRunsToTheEnd() async throws {
            // Each slide first reads its own name back, so answers are proven to arrive.
            let go: (String) -> String = { slide in
                """
                StoryCLMBridge.Invoke("getCurrentSlideName", {}, function (answer) {
                  if (answer.Status === "Success") { StoryCLMBridge.Invoke("go", { slideName: "\(slide)", data: {} }, function () {}); }
                });
                """
            }
            var deck = Self.walkingDeck(
                scripts: ["js/raw.js"], go: go, close: "StoryCLMBridge.Invoke(\"closePresentation\", { mode: 1 });")
            deck.add("js/raw.js", Self.rawTransport)
            let play = try PlayHome(deck)
            let result = try await play.play()
            #expect(result.status == 0, "\(result)")
            try play.expectCompleteSessionThroughEverySlide()
        }

        /// What a storyclm.js 1.7.x deck sends (through the same queue): its session and Tables calls, each
        /// checked in the page; the deck moves on only when every answer is as expected.
        static let version1Calls = """
            function expect(ok, next) { if (ok) { next(); } else { document.title = "unexpected answer"; } }
            StoryCLMBridge.Invoke("consolelog", { message: "deck ready" });
            StoryCLMBridge.Invoke("getsessions", {}, function (list) {
              var open = (list.Data || []).filter(function (s) { return s.presentationId === 10; })[0];
              expect(list.Status === "Success" && open && typeof open.start === "string", function () {
                StoryCLMBridge.Invoke("getsessionbyid", { id: open.id }, function (one) {
                  expect(one.ErrorCode === 200 && one.Data.id === open.id, function () {
                    one.Data.confirmed = 1;
                    StoryCLMBridge.Invoke("sessionupdate", one.Data, function (updated) {
                      expect(updated.ErrorCode === 200 && updated.Data.confirmed === 1, function () {
                        StoryCLMBridge.Invoke("setPresentationComplete", {});
                        StoryCLMBridge.Invoke("count", { tableId: 1 }, function (count) {
                          expect(count.ErrorCode === 503 && /offline/.test(count.ErrorMessage), function () {
                            StoryCLMBridge.Invoke("go", { slideName: "slide1.html", data: {} }, function () {});
                          });
                        });
                      });
                    });
                  });
                });
              });
            });
            """

        @Test func aVersion1DeckGetsItsSessionAndTablesAnswers() async throws {
            var deck = Self.walkingDeck(
                scripts: ["js/raw.js"], go: { "StoryCLMBridge.Invoke(\"go\", { slideName: \"\($0)\", data: {} });" },
                close: "StoryCLMBridge.Invoke(\"closePresentation\", { mode: 1 });")
            deck.add("index.html", DeckFiles.slide("index", scripts: ["js/raw.js"], body: Self.version1Calls))
            deck.add("js/raw.js", Self.rawTransport)
            let play = try PlayHome(deck)
            let result = try await play.play(["--timeout", "30"])
            #expect(result.status == 0, "\(result)")
            #expect(try play.sql("SELECT state, complete FROM sessions") == "[[1, 1]]")
            #expect(!result.stderr.contains("consolelog"), "\(result.stderr)")
        }

        @Test func plainNavigationBetweenSlidesIsRecordedInTheSession() async throws {
            try await Self.expectLibraryDeckRunsToTheEnd { "setTimeout(function () { location.href = '\($0)'; }, 50);" }
        }

        @Test func openingAnotherPresentationServesItsPackage() async throws {
            let play = try PlayHome(
                DeckFiles.librarySlide("StoryCLM.Presentation.Open(20, 'index.html', {}, function () {});"))
            let second = InstalledPresentationFixture(presentationId: 20, name: "Second deck")
            try second.install(in: play.home)
            try DeckFiles.librarySlide("StoryCLM.Presentation.Close(1);").write(
                to: second.sourcesDirectory(in: play.home))
            let result = try await play.play()
            #expect(result.status == 0, "\(result)")
            let sessions = try play.sql("SELECT presentationId, state FROM sessions ORDER BY presentationId")
            #expect(sessions == "[[10, 3], [20, 1]]", "\(result)")
        }

        @Test func headlessAnswersDialogsAndMovesOn() async throws {
            let play = try PlayHome(
                DeckFiles.librarySlide(
                    """
                    alert("hello alert");
                    var answer = prompt("name?", "dflt");
                    StoryCLM.CustomEvents.Set("prompt", String(answer), function () { StoryCLM.Presentation.Close(1); });
                    """))
            let result = try await play.play(["--timeout", "30"])
            #expect(result.status == 0, "\(result)")
            #expect(result.stdout.contains(#""Page":"dialog""#) && result.stdout.contains("hello alert"), "\(result)")
            #expect(try play.sql("SELECT value FROM custom_events") == #"[["dflt"]]"#)
        }

        @Test(.timeLimit(.minutes(2))) func aDeckFetchingLargeFilesWholePlaysWithSclmUnder128MiB() async throws {
            var deck = DeckFiles(["js/storyclm.js": Data(DeckFiles.projectLibrary.utf8)])
            let next = "StoryCLM.CustomEvents.Set('fetched', 'all', function () { StoryCLM.Presentation.Close(1); });"
            deck.add("index.html", DeckFiles.slide("index", body: RenderBoundsTests.largeFetches(then: next)))
            let play = try PlayHome(deck)
            let sources = play.fixture.sourcesDirectory(in: play.home)
            RenderBoundsTests.sparseFile(sources + "/big.bin", size: 250_000_000)
            RenderBoundsTests.sparseFile(sources + "/medium.bin", size: 30 << 20)
            let process = try ProcessRunner.startSclm(
                [
                    "--home", play.home.root, "--json", "play", "--presentation", String(play.fixture.presentationId),
                    "--timeout", "100",
                ])
            let peak = await ProcessMemory.watchPeak(of: process)
            let result = await process.result(timeout: 110)
            #expect(result.status == 0, "\(result)")
            #expect(try play.sql("SELECT value FROM custom_events") == #"[["all"]]"#)
            #expect(result.stdout.contains(#""Page":"tooLarge""#))
            #expect(peak > 0 && peak < 128 << 20, "sclm's peak RSS was \(peak >> 20) MiB")
        }

        @Test func storageIsKeptPerPresentationAcrossRunsAndFreshStartsEmpty() async throws {
            let play = try PlayHome(
                DeckFiles.librarySlide(
                    """
                    var before = String(localStorage.getItem("progress"));
                    localStorage.setItem("progress", "quiz-3");
                    StoryCLM.CustomEvents.Set("before", before, function () { StoryCLM.Presentation.Close(1); });
                    """))
            for arguments in [[], [], ["--fresh"]] {
                let result = try await play.play(arguments + ["--timeout", "30"])
                #expect(result.status == 0, "\(result)")
            }
            // One session per run: nothing stored, then the first run's value, then nothing again.
            #expect(
                try play.sql("SELECT value FROM custom_events ORDER BY rowid") == #"[["null"], ["quiz-3"], ["null"]]"#)
        }

        @Test func videoFromThePackagePlaysThroughRangeRequests() async throws {
            var deck = DeckFiles(["mediafiles/tone.wav": DeckFiles.toneWAV(seconds: 90)])
            let body = """
                fetch("mediafiles/tone.wav", { headers: { Range: "bytes=100-199" } }).then(function (response) {
                  return response.arrayBuffer().then(function (bytes) {
                    StoryCLM.CustomEvents.Set("range", response.status + " " + bytes.byteLength + " "
                      + response.headers.get("Content-Range").replace("/", ":"), function () {});
                  });
                });
                var video = document.querySelector("video");
                video.addEventListener("timeupdate", function () {
                  if (video.currentTime > 0.3) {
                    StoryCLM.CustomEvents.Set("played", String(video.currentTime > 0), function () {
                      StoryCLM.Presentation.Close(1);
                    });
                  }
                });
                video.play();
                """
            deck.add(
                "index.html",
                DeckFiles.slide(
                    "index", body: body, markup: #"<video src="mediafiles/tone.wav" muted playsinline></video>"#))
            deck.add("js/storyclm.js", DeckFiles.projectLibrary)
            let play = try PlayHome(deck)
            let result = try await play.play(["--timeout", "30"])
            #expect(result.status == 0, "\(result)")
            #expect(
                try play.sql("SELECT key, value FROM custom_events ORDER BY key")
                    == #"[["played", "true"], ["range", "206 100 bytes 100-199:1440044"]]"#)
        }
    }
}
