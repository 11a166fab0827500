/// What the content rules know about one packaged file once it has streamed past.
struct FileFacts {
    /// The file types the content rules read.
    enum Kind {
        case html, css, script
    }

    let path: String
    let kind: Kind
    var references: [Reference] = []
    var swipes: [HTMLCollector.Swipe] = []
    /// The line of the first `StoryCLM.`/`StoryCLMBridge.` use (inline script for HTML, anywhere for JS).
    var apiUseLine: Int?
    /// Whether the file carries slide meta tags (`clm`, `clm-swipe-*`).
    var hasSlideMarkers = false
    /// Whether the file holds nothing but whitespace.
    var isBlank = true
    /// Why the file's text cannot be read, if it cannot.
    var undecodableReason: String?
}

/// Reads one HTML, CSS or JavaScript file chunk by chunk and produces its ``FileFacts``.
///
/// Memory stays bounded by the tokenizers' small buffers and the references found, whatever the file size.
struct ContentAnalyzer {
    private static let utf8Charsets: Set<String> = ["utf-8", "utf8", "unicode-1-1-utf-8"]

    private var facts: FileFacts
    private var html = HTMLTokenizer()
    private var collector = HTMLCollector()
    private var css = CSSTokenizer()
    private var api = APIUsageScanner()
    private var utf8 = UTF8Validator()
    private var leadingBytes: [UInt8] = []

    /// An analyzer for `path`, or `nil` when its type is not one the content rules read.
    init?(path: String) {
        guard let kind = Self.kind(of: path) else { return nil }
        facts = FileFacts(path: path, kind: kind)
    }

    /// The type of file at `path`, from its extension.
    static func kind(of path: String) -> FileFacts.Kind? {
        let name = PackagePath.fileName(of: path).lowercased()
        guard let dot = name.lastIndex(of: ".") else { return nil }
        switch name[name.index(after: dot)...] {
        case "html", "htm", "xhtml": return .html
        case "css": return .css
        case "js", "mjs": return .script
        default: return nil
        }
    }

    /// Reads the next chunk of the file.
    mutating func consume(_ bytes: UnsafeRawBufferPointer) {
        if leadingBytes.count < 2 { leadingBytes += bytes.prefix(2 - leadingBytes.count) }
        if facts.isBlank, bytes.contains(where: { !$0.isHTMLSpace }) { facts.isBlank = false }
        switch facts.kind {
        case .html:
            utf8.consume(bytes)
            html.feed(bytes, into: &collector)
        case .css:
            css.feed(bytes)
        case .script:
            api.feed(bytes)
        }
    }

    /// The facts, once the whole file has been read.
    mutating func finish() -> FileFacts {
        switch facts.kind {
        case .html:
            collector.finish()
            facts.references = collector.references
            facts.swipes = collector.swipes
            facts.hasSlideMarkers = collector.hasSlideMarkers
            facts.apiUseLine = collector.inlineAPIScanner.firstUseLine
            facts.undecodableReason = undecodableReason()
        case .css:
            facts.references = css.takeFound().map {
                Reference(attribute: $0.isImport ? "@import" : "url()", value: $0.value, line: $0.line, kind: .css)
            }
        case .script:
            facts.apiUseLine = api.firstUseLine
        }
        return facts
    }

    private func undecodableReason() -> String? {
        if leadingBytes == [0xFF, 0xFE] || leadingBytes == [0xFE, 0xFF] {
            return "the file is UTF-16; sclm and some players read slides as UTF-8 only"
        }
        guard !utf8.isValid else { return nil }
        if let charset = collector.declaredCharset, !Self.utf8Charsets.contains(charset) { return nil }
        return "the file is not valid UTF-8 and declares no other charset"
    }
}
