import SCLMImage
import SCLMTestSupport
import Testing

/// The pixel diff on pictures drawn at test time: what counts as a change, what anti-aliasing explains, how
/// changed pixels group into boxes, and the diff image.
@Suite(.tags(.small)) struct PixelDiffTests {
    static let black: (UInt8, UInt8, UInt8, UInt8) = (0, 0, 0, 255)
    static let white: (UInt8, UInt8, UInt8, UInt8) = (255, 255, 255, 255)

    /// A white 1024 × 768 picture with a black block, as a slide with a chart.
    static func slide() -> RGBAImage {
        var image = RGBAImage(width: 1024, height: 768)
        image.fill(PixelBox(x: 100, y: 100, width: 200, height: 150), with: black)
        return image
    }

    @Test func aPictureHasNoChangeAgainstItself() {
        let comparison = PixelDiff().compare(Self.slide(), Self.slide())
        #expect(comparison.isSame)
        #expect(comparison.changedPixels == 0)
    }

    @Test func aChangedBlockIsOneRegionWithItsExactBox() {
        var new = Self.slide()
        let block = PixelBox(x: 600, y: 400, width: 40, height: 25)
        new.fill(block, with: (0, 90, 200, 255))
        let comparison = PixelDiff().compare(Self.slide(), new)
        #expect(comparison.regions.map(\.box) == [block])
        #expect(comparison.changedPixels == 40 * 25)
    }

    /// Glyphs a few pixels apart are one word: one region; two changes far apart are two.
    @Test func nearbyChangesMergeAndDistantOnesStayApart() {
        var new = Self.slide()
        for letter in 0..<5 { new.fill(PixelBox(x: 500 + letter * 9, y: 50, width: 6, height: 10), with: Self.black) }
        new.fill(PixelBox(x: 900, y: 700, width: 8, height: 8), with: Self.black)
        let comparison = PixelDiff().compare(Self.slide(), new)
        #expect(
            comparison.regions.map(\.box) == [
                PixelBox(x: 500, y: 50, width: 42, height: 10), PixelBox(x: 900, y: 700, width: 8, height: 8),
            ])
        #expect(comparison.changedPixels == 5 * 60 + 64)
    }

    @Test func regionsBelowMinPixelsAreNotReported() {
        var new = Self.slide()
        new.set(10, 10, to: Self.black)
        new.fill(PixelBox(x: 700, y: 300, width: 10, height: 10), with: Self.black)
        let comparison = PixelDiff(minPixels: 5).compare(Self.slide(), new)
        #expect(comparison.regions.map(\.box) == [PixelBox(x: 700, y: 300, width: 10, height: 10)])
        #expect(comparison.changedPixels == 100)
    }

    /// 255 → 250 is within pixelmatch's default threshold; a threshold of 0 counts it.
    @Test func theThresholdDecidesWhatColourDistanceIsAChange() {
        var new = Self.slide()
        new.fill(PixelBox(x: 400, y: 400, width: 20, height: 20), with: (250, 250, 250, 255))
        #expect(PixelDiff().compare(Self.slide(), new).isSame)
        #expect(PixelDiff(threshold: 0).compare(Self.slide(), new).changedPixels == 400)
    }

    /// An edge drawn with another grey between black and white (a sub-pixel shift) is anti-aliasing.
    @Test func anAntialiasedEdgeIsNoChange() {
        func edge(grey: UInt8) -> RGBAImage {
            var image = RGBAImage(width: 64, height: 32)
            image.fill(PixelBox(x: 0, y: 0, width: 20, height: 32), with: Self.black)
            image.fill(PixelBox(x: 20, y: 0, width: 1, height: 32), with: (grey, grey, grey, 255))
            return image
        }
        let comparison = PixelDiff().compare(edge(grey: 200), edge(grey: 60))
        #expect(comparison.isSame)
        #expect(comparison.antialiasedPixels == 32)
    }

    /// Regions at the edges and corners: their outlines fall partly outside the picture and are clipped.
    @Test func regionsAtTheEdgesAreOutlinedInsideThePicture() {
        var new = Self.slide()
        for box in [
            PixelBox(x: 0, y: 0, width: 3, height: 3), PixelBox(x: 1021, y: 765, width: 3, height: 3),
            PixelBox(x: 1023, y: 300, width: 1, height: 5),
        ] {
            new.fill(box, with: Self.black)
        }
        let comparison = PixelDiff().compare(Self.slide(), new)
        #expect(comparison.regions.count == 3)
        let image = comparison.diffImage()
        #expect(image.width == 1024 && image.height == 768)
        #expect(Array(image.pixels[0..<4]) == [230, 0, 0, 255])
    }

    @Test func picturesOfDifferentSizesDifferEverywhere() {
        let comparison = PixelDiff().compare(RGBAImage(width: 10, height: 10), RGBAImage(width: 12, height: 10))
        #expect(comparison.regions.map(\.box) == [PixelBox(x: 0, y: 0, width: 12, height: 10)])
    }

    /// Changed pixels red, unchanged ones faded, the region outlined three pixels outside its box.
    @Test func theDiffImageMarksChangesAndOutlinesRegions() {
        var new = Self.slide()
        new.fill(PixelBox(x: 600, y: 400, width: 40, height: 25), with: Self.black)
        let image = PixelDiff().compare(Self.slide(), new).diffImage()
        func pixel(_ x: Int, _ y: Int) -> [UInt8] { Array(image.pixels[(y * 1024 + x) * 4..<(y * 1024 + x) * 4 + 4]) }
        #expect(pixel(610, 410) == [230, 0, 0, 255])
        #expect(pixel(596, 410) == [255, 0, 200, 255], "the outline, 3 pixels left of the box, 2 wide")
        #expect(pixel(597, 410) == [255, 255, 255, 255], "the gap")
        #expect(pixel(150, 150) == [229, 229, 229, 255], "black faded")
    }
}
