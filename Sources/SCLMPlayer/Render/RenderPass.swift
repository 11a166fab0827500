import SCLMBrowser
import SCLMCore

/// What a ``PackageRenderer`` renders for.
package enum RenderPass: Sendable, Equatable {
    /// `validate --render`: every slide loaded, pictured as it is, and heard for its late window; the pictures
    /// and a contact sheet go to the screenshots folder when one is given.
    case findings
    /// `sclm diff`'s pictures: the slides asked for, pictured so that one revision rendered twice gives the
    /// same pixels (``StillPicture``), with no late window and no contact sheet.
    case pictures

    /// How many packages render at once: one after another for `validate --render` (each with its own
    /// pages loading), both revisions side by side for `sclm diff`, whose few changed slides would
    /// otherwise leave the browser idle while one revision's last slide settles.
    var packagesAtOnce: Int { self == .pictures ? 2 : 1 }

    /// Prepares a new page of the pass before its first slide: for pictures, the frozen clock and seeded
    /// `Math.random` on every document, the time zone fixed to UTC, and the page focused whether or not it
    /// is the tab in front (headless Chromium otherwise draws a focused field's ring only in that tab).
    func prepare(_ page: BrowserPage) async throws {
        guard self == .pictures else { return }
        try await page.callAll([
            ("Page.addScriptToEvaluateOnNewDocument", ["source": .string(StillPicture.newDocumentScript)]),
            ("Emulation.setTimezoneOverride", ["timezoneId": "UTC"]),
            ("Emulation.setFocusEmulationEnabled", ["enabled": true]),
        ])
    }
}
