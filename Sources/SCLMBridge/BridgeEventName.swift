/// Every event the in-process host emits: the one list `bridge.describe` reports, docs/bridge.md documents
/// and the browser hosts (`PageBridge`, `bridge-js/host.js`, `bridge-js/storyclm.js`) follow — tests check
/// each of them against it. External modules may emit names of their own.
package enum BridgeEventName: String, Sendable, CaseIterable {
    /// A presentation opened (at start and on `open`).
    case presentationOpened
    /// The slide on screen changed.
    case slideChanged
    /// The presentation closed, or was left for another one.
    case presentationClosed
    /// A button's visibility changed.
    case uiChanged
    /// A media file was opened.
    case mediaFileOpened
    /// The media library was opened.
    case mediaLibraryOpened
    /// An OSAM version-control alert is to be shown.
    case osamAlert
}
