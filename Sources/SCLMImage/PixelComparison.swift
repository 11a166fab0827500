/// What a ``PixelDiff`` found: the changed regions and, on demand, a diff image.
package struct PixelComparison: Sendable {
    /// The old picture (the new one when the sizes differ): the diff image is drawn over it.
    let base: RGBAImage
    /// One ``PixelDiff/Mark`` per pixel of `base`.
    let mask: [UInt8]
    /// The regions reported (those of at least the diff's `minPixels`), top to bottom.
    package let regions: [PixelRegion]
    /// The pixels that differed only as anti-aliasing.
    package let antialiasedPixels: Int

    /// The changed pixels of the reported regions.
    package var changedPixels: Int { regions.reduce(0) { $0 + $1.pixels } }

    /// Whether no region was reported: the pictures look the same.
    package var isSame: Bool { regions.isEmpty }

    /// The colour of a changed pixel, of an anti-aliased one and of a region's outline.
    static let changedColor: (UInt8, UInt8, UInt8, UInt8) = (230, 0, 0, 255)
    static let antialiasedColor: (UInt8, UInt8, UInt8, UInt8) = (250, 200, 0, 255)
    static let outlineColor: (UInt8, UInt8, UInt8, UInt8) = (255, 0, 200, 255)
    /// How far outside a region its outline is drawn, and how thick.
    static let outlineGap = 3
    static let outlineWidth = 2

    /// The old picture faded to a light grey, changed pixels red, anti-aliased ones yellow, and each reported
    /// region outlined in magenta.
    package func diffImage() -> RGBAImage {
        var image = base
        image.pixels.withUnsafeMutableBufferPointer { pixels in
            mask.withUnsafeBufferPointer { marks in
                for pixel in marks.indices {
                    Self.paint(pixels, at: pixel * 4, mark: marks[pixel])
                }
            }
        }
        for region in regions { Self.outline(region.box, in: &image) }
        return image
    }

    /// One pixel of the diff image: its colour by `mark`, or its brightness faded towards white.
    @inline(__always)
    private static func paint(_ pixels: UnsafeMutableBufferPointer<UInt8>, at index: Int, mark: UInt8) {
        let color: (UInt8, UInt8, UInt8, UInt8)
        switch mark {
        case PixelDiff.Mark.changed.rawValue: color = changedColor
        case PixelDiff.Mark.antialiased.rawValue: color = antialiasedColor
        default:
            let (r, g, b) = PixelDiff.blended(UnsafeBufferPointer(pixels), index)
            let faded = UInt8(255 + (PixelDiff.luma(r, g, b) - 255) * 0.1)
            color = (faded, faded, faded, 255)
        }
        (pixels[index], pixels[index + 1], pixels[index + 2], pixels[index + 3]) = color
    }

    /// Draws the outline of `box` into `image`, ``outlineGap`` pixels outside it.
    private static func outline(_ box: PixelBox, in image: inout RGBAImage) {
        let outer = PixelBox(
            x: box.x - outlineGap - outlineWidth, y: box.y - outlineGap - outlineWidth,
            width: box.width + 2 * (outlineGap + outlineWidth), height: box.height + 2 * (outlineGap + outlineWidth))
        let sides = [
            PixelBox(x: outer.x, y: outer.y, width: outer.width, height: outlineWidth),
            PixelBox(x: outer.x, y: outer.y + outer.height - outlineWidth, width: outer.width, height: outlineWidth),
            PixelBox(x: outer.x, y: outer.y, width: outlineWidth, height: outer.height),
            PixelBox(x: outer.x + outer.width - outlineWidth, y: outer.y, width: outlineWidth, height: outer.height),
        ]
        for side in sides { image.fill(side, with: outlineColor) }
    }
}
