import SCLMImage

/// A PNG as `sclm diff` reads a screenshot (``PNGCodec/decode(_:)``); a picture that decodes is compared with
/// itself (``PixelDiff``), which must find no change.
enum PNGTarget {
    static func fuzz(_ bytes: [UInt8]) {
        guard let image = try? PNGCodec.decode(bytes) else { return }
        precondition(PixelDiff().compare(image, image).isSame, "a picture differs from itself")
    }
}
