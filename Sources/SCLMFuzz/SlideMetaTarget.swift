import SCLMArchive

/// Slide meta (`SlideMeta(html:)`): a slide's `clm-swipe-*` meta tags, as `sclm play` reads them.
enum SlideMetaTarget {
    static func fuzz(_ bytes: [UInt8]) {
        _ = SlideMeta(html: bytes)
    }
}
