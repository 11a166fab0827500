import Foundation
import SCLMTestSupport
import Testing

/// `sclm diff`'s pictures through the built binary and a real Chromium: only changed and renamed slides are
/// rendered, an edit shows as changed pixels in boxes with a diff image, and one revision rendered twice
/// gives no changed pixel whatever its slides animate, blink, tell the time or draw at random.
extension ChromiumTests {
    @Suite(.serialized, .timeLimit(.minutes(3)))
    struct DiffPicturesTests {
        /// The slides of `document` by name.
        static func slides(_ result: ProcessResult) throws -> [String: [String: Any]] {
            let document = try #require(try result.json() as? [String: Any], "\(result)")
            let slides = try #require(document["slides"] as? [[String: Any]])
            return Dictionary(uniqueKeysWithValues: slides.map { ($0["name"] as? String ?? "", $0) })
        }

        @Test func changedAndRenamedSlidesArePicturedAndCompared() async throws {
            let folder = TemporaryDirectory()
            let revisions = try DiffCommandTests.revisions(in: folder)
            let images = folder.appending("images")
            let result = try await ProcessRunner.sclm(
                ["diff", "--format", "json", "--images", images, revisions.old, revisions.new], timeout: 150)
            #expect(result.status == 1, "\(result)")
            let slides = try Self.slides(result)
            for name in ["safety.html", "summary.html", "references.html"] {
                #expect(slides[name]?["pictures"] is NSNull, "\(name) is not rendered")
            }
            let efficacy = try #require(slides["efficacy.html"]?["pictures"] as? [String: Any], "\(result)")
            let changed = try #require(efficacy["changedPixels"] as? Int)
            #expect(changed > 0, "the edited claim changed pixels: \(efficacy)")
            let boxes = try #require(efficacy["boxes"] as? [[String: Int]])
            #expect(!boxes.isEmpty)
            #expect(boxes.reduce(0) { $0 + ($1["pixels"] ?? 0) } == changed, "the boxes hold every changed pixel")
            for box in boxes {
                #expect((box["x"] ?? -1) >= 0 && (box["x"] ?? 0) + (box["width"] ?? 0) <= 1024, "\(box)")
                #expect((box["y"] ?? -1) >= 0 && (box["y"] ?? 0) + (box["height"] ?? 0) <= 768, "\(box)")
            }
            for key in ["oldImage", "newImage", "diffImage"] {
                let path = try #require(efficacy[key] as? String, "\(key)")
                #expect(path.hasPrefix(images + "/"))
                #expect(FileManager.default.fileExists(atPath: path), "\(key) \(path)")
            }
            // The sample deck's footer shows the slide's file name: the one line a rename changes.
            let renamed = try #require(slides["posology.html"]?["pictures"] as? [String: Any], "\(result)")
            let renamedBoxes = try #require(renamed["boxes"] as? [[String: Int]], "\(renamed)")
            #expect(renamedBoxes.count == 1 && (renamedBoxes.first?["height"] ?? 99) < 30, "\(renamed)")
        }

        /// A slide that animates, moves by a transition, blinks a caret, shows the time and a random number.
        static func restlessSlide(_ number: Int) -> String {
            """
            <!DOCTYPE html>
            <html><head><meta charset="utf-8"><title>Slide \(number)</title><style>
            body { font-family: sans-serif; margin: 40px; }
            .spin { width: 80px; height: 80px; background: #c33; animation: spin 1.5s linear infinite; }
            .fade { animation: fade 3s ease-in forwards; }
            @keyframes spin { to { transform: rotate(360deg); } }
            @keyframes fade { from { opacity: 0; } to { opacity: 1; } }
            #box { width: 60px; height: 60px; background: #36c; transition: transform 2s, background 2s; }
            #box.moved { transform: translateX(300px); background: #3c6; }
            </style></head><body>
            <h1 class="fade">Slide \(number)</h1>
            <div class="spin"></div><div id="box"></div>
            <input id="field" autofocus value="dose \(number)">
            <p id="clock"></p><p id="random"></p>
            <script>
            document.getElementById('random').textContent = 'figure ' + Math.random();
            const tick = () => { document.getElementById('clock').textContent = new Date().toString() + ' ' + Date.now(); };
            tick(); setInterval(tick, 100);
            setTimeout(() => document.getElementById('box').classList.add('moved'), 30);
            document.getElementById('field').focus();
            </script></body></html>

            """
        }

        /// 30 such slides in OLD; NEW is the same deck with a comment added to each slide, so every slide is
        /// changed (its HTML differs) and rendered from both revisions: the pictures must be the same.
        @Test func oneRevisionRenderedTwiceHasNoChangedPixel() async throws {
            let folder = TemporaryDirectory()
            for number in 0..<30 {
                let name = number == 0 ? "index.html" : String(format: "slide%02d.html", number)
                try folder.write(Self.restlessSlide(number), to: "old/" + name)
                try folder.write(Self.restlessSlide(number) + "<!-- revision 2 -->\n", to: "new/" + name)
            }
            for run in 1...Soak.iterations(1, soak: 10) {
                let result = try await ProcessRunner.sclm(
                    ["diff", "--format", "json", folder.appending("old"), folder.appending("new")], timeout: 150)
                #expect(result.status == 1, "run \(run): \(result)")
                let slides = try Self.slides(result)
                #expect(slides.count == 30)
                let moving = slides.filter { name, slide in
                    let pictures = slide["pictures"] as? [String: Any]
                    return pictures?["changedPixels"] as? Int != 0 || !(pictures?["problem"] is NSNull)
                }
                #expect(moving.isEmpty, "run \(run): \(moving.map { "\($0.key): \($0.value["pictures"] ?? "none")" })")
            }
        }
    }
}
