import Foundation
import SCLMCore

/// How to start the browser: which executable, headless or kiosk, the window size.
package struct BrowserOptions: Sendable, Equatable {
    /// Where the browser is shown.
    package enum Mode: Sendable, Equatable {
        /// No window (`--headless=new`): tests, rigs, CI renders.
        case headless
        /// Fullscreen on the current display (`--kiosk`), for a screen in a shop or a booth.
        case kiosk
    }

    /// A width × height in CSS pixels.
    package struct Viewport: Sendable, Equatable, CustomStringConvertible {
        package var width: Int
        package var height: Int

        /// Creates a viewport.
        package init(width: Int, height: Int) {
            self.width = width
            self.height = height
        }

        /// Parses `WIDTHxHEIGHT` (each 16…8192), e.g. `1024x768`.
        package init?(parsing text: String) {
            let parts = text.lowercased().split(separator: "x", omittingEmptySubsequences: false)
            guard parts.count == 2, let width = Int(parts[0]), let height = Int(parts[1]),
                (16...8192).contains(width), (16...8192).contains(height)
            else { return nil }
            self.init(width: width, height: height)
        }

        package var description: String { "\(width)x\(height)" }
    }

    /// The browser to run; `nil` looks on `PATH` for ``candidates`` in order.
    package var executable: String?
    package var mode: Mode
    package var viewport: Viewport
    /// Pass the browser's own log lines through to stderr.
    package var showsBrowserLogs: Bool
    /// A folder that keeps what pages store (`localStorage`, IndexedDB, cookies) across runs: copied into
    /// the fresh profile at start and back when the browser ends (see `KeptStorage`); `nil` keeps nothing.
    package var keptStorage: String?

    /// Creates options.
    package init(
        executable: String? = nil, mode: Mode = .headless, viewport: Viewport = Viewport(width: 1024, height: 768),
        showsBrowserLogs: Bool = false
    ) {
        self.executable = executable
        self.mode = mode
        self.viewport = viewport
        self.showsBrowserLogs = showsBrowserLogs
    }

    /// The executable named by `--browser`, else `SCLM_BROWSER`, else `nil` (search `PATH`).
    package static func executable(option: String?, environment: [String: String]) -> String? {
        if let option, !option.isEmpty { return option }
        if let variable = environment["SCLM_BROWSER"], !variable.isEmpty { return variable }
        return nil
    }

    /// The browser's command-line flags, apart from the sandbox and the profile.
    var flags: [String] {
        var flags = [
            "--remote-debugging-pipe", "--no-first-run", "--no-default-browser-check",
            "--disable-background-networking",
            "--disable-component-update", "--disable-default-apps", "--disable-extensions", "--disable-sync",
            "--disable-crash-reporter", "--disable-breakpad", "--password-store=basic", "--use-mock-keychain",
            // Prerendered pages would lack the bridge (a tablet's WebView has none either). A tab kept in the
            // back-forward cache holds its renderer, so the next page of that tab needs a new one.
            "--autoplay-policy=no-user-gesture-required",
            "--disable-features=Translate,MediaRouter,Prerender2,BackForwardCache",
            // Renders run several tabs at once; background tabs must not have their timers throttled.
            "--disable-background-timer-throttling", "--disable-renderer-backgrounding",
            "--disable-backgrounding-occluded-windows",
            "--window-size=\(viewport.width),\(viewport.height)",
        ]
        switch mode {
        case .headless:
            flags += ["--headless=new", "--disable-gpu", "--hide-scrollbars", "--mute-audio"]
        case .kiosk:
            flags += [
                "--kiosk", "--start-fullscreen", "--noerrdialogs", "--disable-infobars",
                "--disable-session-crashed-bubble",
            ]
        }
        return flags
    }

    /// Switches that turn the browser's own networking off, for when it cannot have a network namespace
    /// of its own: every host name resolves to nothing and every connection goes to a proxy that is not
    /// there (loopback too, which Chromium otherwise never proxies), and WebRTC sends no UDP outside that
    /// proxy (the headless shell reads no profile preferences for it). Prerendering is always off (see
    /// ``flags``); the profile's ``BrowserPreferences`` turn off network prediction and, in the desktop
    /// browser, WebRTC's UDP once more.
    static let networkOffFlags = [
        "--host-resolver-rules=MAP * ~NOTFOUND", "--proxy-server=http://0.0.0.0:9", "--proxy-bypass-list=<-loopback>",
        "--force-webrtc-ip-handling-policy=disable_non_proxied_udp",
    ]

    /// The flag that picks the display a kiosk opens its window on: Wayland (`--ozone-platform=wayland`)
    /// when `WAYLAND_DISPLAY` is set and `DISPLAY` is not (Chromium would otherwise look for X only);
    /// none headless or with an X display, which Chromium uses by default (also under XWayland).
    func displayFlags(environment: [String: String]) -> [String] {
        guard mode == .kiosk, !(environment["WAYLAND_DISPLAY"]?.isEmpty ?? true),
            environment["DISPLAY"]?.isEmpty ?? true
        else { return [] }
        return ["--ozone-platform=wayland"]
    }

    /// Checks that a kiosk can open a window.
    ///
    /// - Parameters:
    ///   - environment: sclm's environment (`DISPLAY`, `WAYLAND_DISPLAY`).
    ///   - isolatesNetwork: the browser runs in a network namespace of its own, where an X server over
    ///     TCP (`DISPLAY=host:0`) cannot be reached; local X (through its socket in `/tmp/.X11-unix`)
    ///     and Wayland (through its socket) can.
    /// - Returns: why it cannot, or `nil` (always `nil` headless).
    func displayProblem(environment: [String: String], isolatesNetwork: Bool) -> String? {
        guard mode == .kiosk, environment["WAYLAND_DISPLAY"]?.isEmpty ?? true else { return nil }
        guard let display = environment["DISPLAY"], !display.isEmpty else {
            return "no X or Wayland display: set DISPLAY (or WAYLAND_DISPLAY), or use --headless"
        }
        let host = display.split(separator: ":", maxSplits: 1, omittingEmptySubsequences: false)[0]
        guard isolatesNetwork, !host.isEmpty, host != "unix", !host.hasPrefix("/") else { return nil }
        return "DISPLAY=\(display) is an X server over TCP, which the browser cannot reach from its own network "
            + "namespace (it has no network): use a local display such as :0, or --headless"
    }

    /// The browsers looked for on `PATH` when none is named, in order. Headless, Debian's
    /// `chromium-headless-shell` comes first: the same Chromium release built without the browser's
    /// windowing layer, which renders a deck's slides in about half the time and CPU of `chromium
    /// --headless=new` (bench/RESULTS.md); a kiosk needs the full browser.
    var candidates: [String] {
        let full = ["chromium", "chromium-browser", "google-chrome"]
        return mode == .headless ? ["chromium-headless-shell"] + full : full
    }

    /// The executable to run.
    ///
    /// - Throws: ``BrowserError`` (`.unavailable`) when it is missing or not executable.
    func resolvedExecutable(path: String) throws -> String {
        if let executable {
            guard access(executable, X_OK) == 0, !FileSystem.isDirectory(executable) else {
                throw BrowserError.notFound("the browser \(executable) does not exist or is not executable")
            }
            return executable
        }
        for name in candidates {
            for folder in path.split(separator: ":") where access("\(folder)/\(name)", X_OK) == 0 {
                return "\(folder)/\(name)"
            }
        }
        throw BrowserError.notFound("Chromium was not found on PATH")
    }
}
