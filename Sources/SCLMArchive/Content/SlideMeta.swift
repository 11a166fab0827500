import Foundation

/// The navigation a slide declares in its own markup: its `clm-swipe-next` and `clm-swipe-previous` meta
/// tags, read with the same tokenizer the content rules use.
///
/// Each target is `nil` when the slide has no such tag, and `""` when the tag is present with an empty (or
/// no) `content`, which declares that there is no slide that way. The first tag of a name counts, as
/// `document.querySelector` finds it; names compare case-insensitively, targets are trimmed.
package struct SlideMeta: Sendable, Equatable {
    /// The `clm-swipe-next` target.
    package var swipeNext: String?
    /// The `clm-swipe-previous` target.
    package var swipePrevious: String?

    /// How much of a slide is read to find its meta tags (they belong in `<head>`).
    package static let maximumBytes = 1 << 20

    /// Creates the declarations of a slide.
    package init(swipeNext: String? = nil, swipePrevious: String? = nil) {
        self.swipeNext = swipeNext
        self.swipePrevious = swipePrevious
    }

    /// The meta tags of `html`.
    package init(html: some Sequence<UInt8>) {
        var tokenizer = HTMLTokenizer()
        var sink = Sink()
        Array(html).withUnsafeBytes { tokenizer.feed($0, into: &sink) }
        self = sink.meta
    }

    /// The meta tags of the HTML file at `path` (its first ``maximumBytes``), or `nil` when it cannot be read.
    package static func read(path: String) -> SlideMeta? {
        guard let file = FileHandle(forReadingAtPath: path) else { return nil }
        defer { try? file.close() }
        guard let bytes = try? file.read(upToCount: maximumBytes) else { return nil }
        return SlideMeta(html: bytes)
    }

    /// Keeps the first `clm-swipe-next` and `clm-swipe-previous` meta tag.
    private struct Sink: HTMLTokenSink {
        var meta = SlideMeta()

        mutating func handleTag(_ tag: HTMLTag) {
            guard tag.name == "meta", !tag.isEndTag else { return }
            let content = tag.attributes.first { $0.name == "content" }.map { HTMLEntities.decode($0.value) } ?? ""
            let target = content.trimmingCharacters(in: .whitespacesAndNewlines)
            switch tag.value(of: "name")?.lowercased() {
            case "clm-swipe-next" where meta.swipeNext == nil: meta.swipeNext = target
            case "clm-swipe-previous" where meta.swipePrevious == nil: meta.swipePrevious = target
            default: break
            }
        }

        mutating func handleRawText(_ bytes: UnsafeRawBufferPointer, of element: String) {}
    }
}
