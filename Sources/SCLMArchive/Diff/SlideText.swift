/// The static text of a slide: its text nodes as the HTML file holds them, per element in document order.
///
/// Text outside `script`, `style`, `title`, `textarea` and `template` is kept, character references decoded
/// and white space collapsed; what scripts write at run time, attribute values (`alt`, `title`) and
/// generated CSS content are not seen. Read with the tokenizer of the content rules.
package struct SlideText: Sendable, Equatable {
    /// One run of text and the element it sits in.
    package struct Run: Sendable, Equatable {
        /// The element: its tag, then `#id` and `.class`es when it has them (`p#claim.lead`).
        package let element: String
        /// The text, white space collapsed.
        package let text: String

        /// Creates a run.
        package init(element: String, text: String) {
            self.element = element
            self.text = text
        }
    }

    /// The runs, in document order.
    package let runs: [Run]

    /// The words of the text, each with its element.
    package var words: [WordDiff.Word] {
        runs.flatMap { run in
            run.text.split(separator: " ").map { WordDiff.Word(text: String($0), element: run.element) }
        }
    }

    /// The text of `html`.
    package init(html: [UInt8]) {
        var tokenizer = HTMLTokenizer()
        var collector = Collector()
        html.withUnsafeBytes { tokenizer.feed($0, into: &collector) }
        collector.flush()
        runs = collector.runs
    }

    /// Gathers runs while the tokenizer reads: an element stack (void elements never pushed) and the bytes of
    /// the current run.
    private struct Collector: HTMLTokenSink {
        private static let voidElements: Set<String> = [
            "area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "param", "source", "track",
            "wbr",
        ]

        var runs: [Run] = []
        private var stack: [(name: String, label: String)] = []
        private var pending: [UInt8] = []
        /// How many `template` elements are open.
        private var templates = 0

        mutating func handleTag(_ tag: HTMLTag) {
            flush()
            if tag.isEndTag {
                if tag.name == "template" { templates = max(0, templates - 1) }
                if let index = stack.lastIndex(where: { $0.name == tag.name }) { stack.removeSubrange(index...) }
                return
            }
            if tag.name == "template" { templates += 1 }
            guard !Self.voidElements.contains(tag.name) else { return }
            stack.append((tag.name, Self.label(of: tag)))
        }

        func handleRawText(_ bytes: UnsafeRawBufferPointer, of element: String) {}

        mutating func handleText(_ bytes: UnsafeRawBufferPointer) {
            if templates == 0 { pending.append(contentsOf: bytes) }
        }

        /// Ends the current run.
        mutating func flush() {
            guard !pending.isEmpty else { return }
            let words = HTMLEntities.decode(pending).split { $0.isWhitespace }
            pending.removeAll(keepingCapacity: true)
            guard !words.isEmpty else { return }
            runs.append(Run(element: stack.last?.label ?? "document", text: words.joined(separator: " ")))
        }

        /// `tag` as `name#id.class1.class2`.
        private static func label(of tag: HTMLTag) -> String {
            var label = tag.name
            if let id = tag.value(of: "id"), !id.isEmpty { label += "#" + HTMLEntities.decode(Array(id.utf8)) }
            for name in (tag.value(of: "class") ?? "").split(whereSeparator: { $0.isWhitespace }) {
                label += "." + HTMLEntities.decode(Array(name.utf8))
            }
            return label
        }
    }
}
