import Foundation

/// Collects what the content rules need from one HTML file while ``HTMLTokenizer`` reads it: references,
/// swipe targets, slide markers, the declared charset and the first inline StoryCLM API call.
struct HTMLCollector: HTMLTokenSink {
    /// A `clm-swipe-next` or `clm-swipe-previous` meta tag.
    struct Swipe: Equatable {
        let name: String
        let target: String
        let line: Int
    }

    private static let stylesheetRelations: Set<String> = [
        "stylesheet", "icon", "apple-touch-icon", "preload", "modulepreload", "prefetch", "manifest", "mask-icon",
    ]

    private(set) var references: [Reference] = []
    private(set) var swipes: [Swipe] = []
    private(set) var hasSlideMarkers = false
    private(set) var declaredCharset: String?
    private(set) var inlineAPIScanner = APIUsageScanner()
    private var styleScanner: CSSTokenizer?

    mutating func handleTag(_ tag: HTMLTag) {
        if tag.isEndTag {
            if tag.name == "style" { closeStyle() }
            return
        }
        switch tag.name {
        case "style": styleScanner = CSSTokenizer(line: tag.endLine)
        case "script": inlineAPIScanner.restart(at: tag.endLine)
        case "meta": readMeta(tag)
        default: break
        }
        for attribute in tag.attributes { read(attribute, of: tag) }
    }

    mutating func handleRawText(_ bytes: UnsafeRawBufferPointer, of element: String) {
        switch element {
        case "style": styleScanner?.feed(bytes)
        case "script": inlineAPIScanner.feed(bytes)
        default: break
        }
    }

    /// Ends the file: an unterminated `<style>` still yields its references.
    mutating func finish() { closeStyle() }

    private mutating func read(_ attribute: HTMLTag.Attribute, of tag: HTMLTag) {
        func add(_ kind: Reference.Kind, _ value: String) {
            references.append(Reference(attribute: attribute.name, value: value, line: attribute.line, kind: kind))
        }
        switch attribute.name {
        case "src": add(tag.name == "script" ? .script : .resource, HTMLEntities.decode(attribute.value))
        case "poster", "background": add(.resource, HTMLEntities.decode(attribute.value))
        case "data" where tag.name == "object": add(.resource, HTMLEntities.decode(attribute.value))
        case "srcset", "imagesrcset":
            for candidate in HTMLEntities.decode(attribute.value).split(separator: ",") {
                if let url = candidate.split(whereSeparator: { $0.isWhitespace }).first { add(.resource, String(url)) }
            }
        case "href", "xlink:href":
            if let kind = hrefKind(tag) { add(kind, HTMLEntities.decode(attribute.value)) }
        case "style":
            var scanner = CSSTokenizer(line: attribute.line)
            scanner.feed(HTMLEntities.decode(attribute.value).utf8)
            addCSS(scanner.takeFound())
        default: break
        }
    }

    private func hrefKind(_ tag: HTMLTag) -> Reference.Kind? {
        switch tag.name {
        case "a", "area": return .navigation
        case "image", "use", "feimage": return .resource
        case "link":
            let relations = (tag.value(of: "rel") ?? "").lowercased().split(whereSeparator: { $0.isWhitespace })
            return relations.contains { Self.stylesheetRelations.contains(String($0)) } ? .resource : .navigation
        default: return nil
        }
    }

    private mutating func readMeta(_ tag: HTMLTag) {
        if let charset = tag.value(of: "charset") { declaredCharset = charset.lowercased() }
        if tag.value(of: "http-equiv")?.lowercased() == "content-type", let content = tag.value(of: "content"),
            let range = content.lowercased().range(of: "charset=")
        {
            declaredCharset = String(content.lowercased()[range.upperBound...]).trimmingCharacters(in: .whitespaces)
        }
        let name = tag.value(of: "name")?.lowercased() ?? ""
        guard name == "clm" || name.hasPrefix("clm-swipe-") else { return }
        hasSlideMarkers = true
        guard name == "clm-swipe-next" || name == "clm-swipe-previous",
            let attribute = tag.attributes.first(where: { $0.name == "content" })
        else { return }
        let target = HTMLEntities.decode(attribute.value).trimmingCharacters(in: .whitespacesAndNewlines)
        if !target.isEmpty { swipes.append(Swipe(name: name, target: target, line: attribute.line)) }
    }

    private mutating func closeStyle() {
        guard var scanner = styleScanner else { return }
        addCSS(scanner.takeFound())
        styleScanner = nil
    }

    private mutating func addCSS(_ found: [CSSTokenizer.Found]) {
        for item in found {
            references.append(
                Reference(
                    attribute: item.isImport ? "@import" : "url()", value: item.value, line: item.line, kind: .css))
        }
    }
}
