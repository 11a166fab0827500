import Foundation
import SCLMTestSupport
import Testing

@testable import SCLMBrowser

/// What explains a browser that will not start, and which displays a kiosk can use.
@Suite(.tags(.small))
struct BrowserLaunchCheckTests {
    @Test func chromiumsFatalLineIsQuotedOverItsErrors() {
        let lines = [
            "/usr/bin/chromium: 9: [: 25276502016: unexpected operator",
            "[1:2:1202/055038.955155:ERROR:third_party/crashpad/util/file/filesystem_posix.cc:63] mkdir : No such file",
            "[1:1:1202/055039.019612:FATAL:base/path_service.cc:264] Failed to get the path for 1001",
        ]
        #expect(BrowserLog.reason(lines) == "Failed to get the path for 1001")
    }

    @Test func withoutAFatalLineTheLastErrorsAreQuotedButNotDBus() {
        let lines = [
            "[6:7:1202/055038.591302:ERROR:dbus/bus.cc:405] Failed to connect to the bus: no socket",
            "[6:6:1202/055038.671031:ERROR:ui/ozone/platform/x11/ozone_platform_x11.cc:257] Missing X server or $DISPLAY",
            "[6:6:1202/055038.671067:ERROR:ui/aura/env.cc:253] The platform failed to initialize.  Exiting.",
            "[6:7:1202/055038.691302:ERROR:dbus/bus.cc:405] Failed to connect to the bus: no socket",
        ]
        #expect(
            BrowserLog.reason(lines) == "Missing X server or $DISPLAY; The platform failed to initialize.  Exiting.")
    }

    @Test func aWaylandDisplayThatRefusesTheBrowserIsQuotedWithItsReason() {
        let lines = [
            "[8:8:1202/090304.730543:ERROR:ui/ozone/platform/wayland/common/drm_render_node_path_finder.cc:40] "
                + "drmGetDevices2() has not found any devices: No such file or directory (2)",
            "[8:8:1202/090304.972819:ERROR:ui/ozone/platform/wayland/host/wayland_connection.cc:210] "
                + "Failed to connect to Wayland display: Permission denied (13)",
            "[8:8:1202/090304.972876:ERROR:ui/ozone/platform/wayland/ozone_platform_wayland.cc:288] "
                + "Failed to initialize Wayland platform",
            "[8:8:1202/090304.972885:ERROR:ui/aura/env.cc:253] The platform failed to initialize.  Exiting.",
        ]
        #expect(
            BrowserLog.reason(lines)
                == "Failed to connect to Wayland display: Permission denied (13); Failed to initialize Wayland "
                + "platform; The platform failed to initialize.  Exiting.")
    }

    /// `-v` passes Chromium's lines through, but not its D-Bus complaints (issue 38).
    @Test func theEchoedLogLeavesOutDBusNoise() throws {
        let lines = [
            "[6:7:1202/055038.591302:ERROR:dbus/bus.cc:405] Failed to connect to the bus: no socket",
            "[6:6:1202/055038.671031:ERROR:ui/aura/env.cc:253] The platform failed to initialize.  Exiting.",
            "[6:9:1202/055039.1:ERROR:components/power/x.cc:1] Failed to call method: org.freedesktop.DBus.Properties.Get",
            "a launcher's own line",
        ]
        let (input, echoed) = (Pipe(), Pipe())
        input.fileHandleForWriting.write(Data((lines.joined(separator: "\n") + "\n").utf8))
        try input.fileHandleForWriting.close()
        let log = BrowserLog()
        log.read(input.fileHandleForReading.fileDescriptor, echo: echoed.fileHandleForWriting.fileDescriptor)
        try echoed.fileHandleForWriting.close()
        let text = String(decoding: echoed.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        #expect(text == lines[1] + "\n" + lines[3] + "\n")
    }

    @Test func aLaunchersOwnLineIsQuotedWhenChromiumSaidNothing() {
        #expect(BrowserLog.reason(["unshare: unshare failed: Operation not permitted"])?.hasPrefix("unshare:") == true)
        #expect(BrowserLog.reason([]) == nil)
    }

    @Test func aKioskNeedsALocalXOrAWaylandDisplay() {
        let kiosk = BrowserOptions(mode: .kiosk)
        #expect(kiosk.displayProblem(environment: [:], isolatesNetwork: true)?.hasPrefix("no X or Wayland") == true)
        #expect(kiosk.displayProblem(environment: ["DISPLAY": ":0"], isolatesNetwork: true) == nil)
        #expect(kiosk.displayProblem(environment: ["DISPLAY": "unix:1.0"], isolatesNetwork: true) == nil)
        #expect(kiosk.displayProblem(environment: ["WAYLAND_DISPLAY": "wayland-0"], isolatesNetwork: true) == nil)
        #expect(
            kiosk.displayProblem(environment: ["DISPLAY": "host:0"], isolatesNetwork: true)?.contains("TCP") == true)
        #expect(kiosk.displayProblem(environment: ["DISPLAY": "localhost:10.0"], isolatesNetwork: false) == nil)
        #expect(BrowserOptions().displayProblem(environment: [:], isolatesNetwork: true) == nil)
    }

    @Test func aKioskPicksWaylandOnlyWhenThereIsNoXDisplay() {
        let kiosk = BrowserOptions(mode: .kiosk)
        #expect(kiosk.displayFlags(environment: ["WAYLAND_DISPLAY": "wayland-0"]) == ["--ozone-platform=wayland"])
        #expect(
            kiosk.displayFlags(environment: ["WAYLAND_DISPLAY": "wayland-0", "DISPLAY": ""])
                == ["--ozone-platform=wayland"])
        #expect(kiosk.displayFlags(environment: ["WAYLAND_DISPLAY": "wayland-0", "DISPLAY": ":0"]).isEmpty)
        #expect(kiosk.displayFlags(environment: ["DISPLAY": ":0"]).isEmpty)
        #expect(kiosk.displayFlags(environment: ["WAYLAND_DISPLAY": ""]).isEmpty)
        #expect(BrowserOptions().displayFlags(environment: ["WAYLAND_DISPLAY": "wayland-0"]).isEmpty)
    }

    @Test func aFolderInsideA0700FolderOfAnotherUserCannotBeTraversed() throws {
        let folder = TemporaryDirectory(prefix: "sclm-access")
        let inner = folder.appending("inner")
        try FileManager.default.createDirectory(atPath: inner, withIntermediateDirectories: false)
        try FileManager.default.setAttributes([.posixPermissions: 0o700], ofItemAtPath: folder.path)
        let owner = getuid()
        #expect(FolderAccess.canTraverse(inner, uid: owner, gid: getgid()))
        #expect(!FolderAccess.canTraverse(inner, uid: owner + 4242, gid: 4242))
        try FileManager.default.setAttributes([.posixPermissions: 0o711], ofItemAtPath: folder.path)
        #expect(FolderAccess.canTraverse(inner, uid: owner + 4242, gid: 4242))
    }
}
