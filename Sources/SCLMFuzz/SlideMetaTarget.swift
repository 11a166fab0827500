import SCLMArchive

/// A slide's HTML as sclm reads it outside the content rules: its `clm-swipe-*` meta tags (`SlideMeta(html:)`,
/// as `sclm play` reads them) and its static text (`SlideText(html:)`, as `sclm diff` compares it).
enum SlideMetaTarget {
    static func fuzz(_ bytes: [UInt8]) {
        _ = SlideMeta(html: bytes)
        _ = SlideText(html: bytes).words
    }
}
