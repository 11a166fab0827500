import Foundation
import SCLMCore
import SCLMTestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// A browser that cannot start is explained as it is: no display for a kiosk, an X server over TCP that
/// the browser's network namespace cannot reach, Chromium's own fatal line — and the install hint only
/// when there is no browser. A kiosk runs on a local X server and on a Wayland compositor. As root, a
/// `TMPDIR` the sandbox user cannot reach still works.
extension ChromiumTests {
    @Suite(.serialized, .timeLimit(.minutes(1)))
    struct BrowserLaunchTests {
        /// `sclm play --kiosk` of a one-slide presentation with `environment`.
        static func kiosk(_ environment: [String: String]) async throws -> ProcessResult {
            let play = try PlayTests.PlayHome(DeckFiles.librarySlide("StoryCLM.Presentation.Close(1);"))
            return try await ProcessRunner.sclm(
                ["play", "--presentation", String(play.fixture.presentationId), "--kiosk", "--timeout", "20"],
                home: play.home.root, environment: environment, timeout: 40)
        }

        /// A kiosk on a local X server (Xvfb, when installed) reaches it through its socket in
        /// `/tmp/.X11-unix` from inside the browser's network namespace, and runs to the end.
        @Test(.enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/Xvfb")))
        func aKioskOnALocalXServerRuns() async throws {
            let server = try RunningProcess(
                "/usr/bin/Xvfb", ["-displayfd", "1", "-nolisten", "tcp", "-screen", "0", "1024x768x24"], stdin: Data(),
                environment: [:])
            defer { server.send(SIGKILL) }
            #expect(try await server.waitForOutput { $0.hasSuffix("\n") }, "Xvfb said which display it opened")
            let display = server.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
            let result = try await Self.kiosk(["DISPLAY": ":" + display])
            #expect(result.status == 0, "\(result)")
        }

        /// `sclm play --kiosk` (``kiosk(_:)``) with only a Wayland display: weston's headless backend on a
        /// socket in a runtime folder of its own. As root the browser runs as `nobody`, so with
        /// `asBrowserUser` the compositor does too (a Wayland socket admits only who may write to it);
        /// otherwise it runs as root.
        static func kioskOnWeston(asBrowserUser: Bool) async throws -> ProcessResult {
            let runtime = TemporaryDirectory(prefix: "sclm-wayland")
            var launcher: [String] = []
            if asBrowserUser, geteuid() == 0, let nobody = getpwnam("nobody") {
                #expect(chown(runtime.path, nobody.pointee.pw_uid, nobody.pointee.pw_gid) == 0)
                launcher = [
                    "--reuid=\(nobody.pointee.pw_uid)", "--regid=\(nobody.pointee.pw_gid)", "--clear-groups",
                    "/usr/bin/weston",
                ]
            }
            let arguments = [
                "--backend=headless-backend.so", "--shell=kiosk-shell.so", "--socket=sclm-test", "--width=1024",
                "--height=768",
            ]
            let compositor = try RunningProcess(
                launcher.isEmpty ? "/usr/bin/weston" : "/usr/bin/setpriv", launcher + arguments, stdin: Data(),
                environment: ["XDG_RUNTIME_DIR": runtime.path, "HOME": runtime.path, "PATH": "/usr/bin:/bin"])
            defer { compositor.send(SIGKILL) }
            let socket = runtime.appending("sclm-test")
            let deadline = ContinuousClock.now + .seconds(20)
            while !FileManager.default.fileExists(atPath: socket), compositor.isRunning, ContinuousClock.now < deadline
            {
                try await Task.sleep(for: .milliseconds(20))
            }
            try #require(FileManager.default.fileExists(atPath: socket), "weston did not start: \(compositor.stderr)")
            return try await kiosk(["WAYLAND_DISPLAY": "sclm-test", "XDG_RUNTIME_DIR": runtime.path])
        }

        /// A kiosk with only a Wayland display opens its window there (`--ozone-platform=wayland`: Chromium
        /// would otherwise look for X, and there is none) through the compositor's socket, from inside the
        /// browser's network namespace, and runs to the end.
        @Test(.enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/weston"), "needs weston"))
        func aKioskOnAWaylandCompositorRuns() async throws {
            let result = try await Self.kioskOnWeston(asBrowserUser: true)
            #expect(result.status == 0, "\(result)")
        }

        /// As root the browser runs as `nobody`, which a compositor run by root does not let in: Chromium's
        /// own words say so, not an install hint.
        @Test(.enabled(if: geteuid() == 0 && FileManager.default.isExecutableFile(atPath: "/usr/bin/weston")))
        func asRootAKioskOnACompositorNobodyCannotEnterQuotesChromium() async throws {
            let result = try await Self.kioskOnWeston(asBrowserUser: false)
            #expect(result.status == 69, "\(result)")
            #expect(
                result.stderr.contains("Failed to connect to Wayland display: Permission denied"),
                "Chromium's own words: \(result)")
            #expect(!result.stderr.contains("apt-get"))
        }

        @Test func aKioskWithoutADisplaySaysSo() async throws {
            let result = try await Self.kiosk([:])
            #expect(result.status == 69, "\(result)")
            #expect(
                result.stderr.contains("no X or Wayland display: set DISPLAY (or WAYLAND_DISPLAY), or use --headless"),
                "\(result)")
            #expect(!result.stderr.contains("apt-get"))
        }

        @Test func aKioskOnAnXServerOverTCPSaysTheBrowserCannotReachIt() async throws {
            let result = try await Self.kiosk(["DISPLAY": "display-host.sclm-test.example:0"])
            #expect(result.status == 69, "\(result)")
            #expect(result.stderr.contains("is an X server over TCP"), "\(result)")
            #expect(!result.stderr.contains("apt-get"))
        }

        @Test func aKioskWhoseXServerIsNotThereQuotesChromium() async throws {
            let result = try await Self.kiosk(["DISPLAY": ":97"])
            #expect(result.status == 69, "\(result)")
            #expect(result.stderr.contains("Missing X server or $DISPLAY"), "Chromium's own words: \(result)")
            #expect(!result.stderr.contains("apt-get"))
        }

        @Test(.enabled(if: geteuid() == 0)) func asRootATemporaryFolderNobodyCanReachStillRenders() async throws {
            let folder = TemporaryDirectory(prefix: "sclm-private")
            let temporary = folder.appending("tmp")
            try FileManager.default.createDirectory(atPath: temporary, withIntermediateDirectories: false)
            #expect(chmod(folder.path, 0o700) == 0)
            let deck = try ChromiumTests.ValidateRenderTests.deck(in: folder, script: "document.title = 'ok';")
            // 60 s to load: what is checked is where the browser's profile goes, and beside two busy loops and
            // the other Chromium suites all three slides of this deck once took longer than the default 15 s.
            let result = try await ProcessRunner.sclm(
                ["validate", "--render", "--render-timeout", "60", deck, "--format", "json"],
                environment: ["TMPDIR": temporary])
            #expect(result.status == 0, "\(result)")
            #expect(try ChromiumTests.ValidateRenderTests.findings(result).isEmpty, "\(result)")
        }
    }
}
