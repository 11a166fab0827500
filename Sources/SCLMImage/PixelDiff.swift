import Foundation

/// Compares two pictures pixel by pixel, the way pixelmatch and odiff do: a pixel is changed when its colour
/// distance in YIQ space (alpha blended over white) exceeds ``threshold``, unless it looks like anti-aliasing
/// in either picture (a pixel between a darker and a brighter neighbour, each of which has identical neighbours
/// of its own: an edge drawn a sub-pixel apart, not a change). Changed pixels are grouped into regions
/// (``PixelRegions``) and a region of fewer than ``minPixels`` changed pixels is not reported.
///
/// The loops read the RGBA bytes through unsafe buffer pointers and allocate nothing per pixel: one mask of a
/// byte per pixel is the only allocation of a comparison.
package struct PixelDiff: Sendable {
    /// The largest distance between two colours, in pixelmatch's units (black against white).
    static let maxYIQDelta = 35215.0

    /// The per-pixel colour distance that counts as a change, 0…1 (pixelmatch's `threshold`; 0.1 by default).
    package var threshold: Double
    /// The fewest changed pixels a region needs to be reported.
    package var minPixels: Int

    /// A comparison with pixelmatch's default threshold, every region reported.
    package init(threshold: Double = 0.1, minPixels: Int = 1) {
        self.threshold = threshold
        self.minPixels = minPixels
    }

    /// What each pixel of a comparison's mask says.
    enum Mark: UInt8 {
        case same = 0, antialiased = 1, changed = 2
    }

    /// Compares `old` with `new`. Pictures of different sizes differ everywhere: one region covering the larger.
    package func compare(_ old: RGBAImage, _ new: RGBAImage) -> PixelComparison {
        guard old.width == new.width, old.height == new.height else {
            let box = PixelBox(x: 0, y: 0, width: max(old.width, new.width), height: max(old.height, new.height))
            let mask = [UInt8](repeating: Mark.changed.rawValue, count: new.width * new.height)
            return PixelComparison(
                base: new, mask: mask, regions: [PixelRegion(box: box, pixels: box.width * box.height)],
                antialiasedPixels: 0)
        }
        var mask = [UInt8](repeating: Mark.same.rawValue, count: old.width * old.height)
        let maxDelta = Self.maxYIQDelta * threshold * threshold
        let antialiased = old.pixels.withUnsafeBufferPointer { first in
            new.pixels.withUnsafeBufferPointer { second in
                mask.withUnsafeMutableBufferPointer { marks in
                    Self.mark(
                        Pair(first: first, second: second, width: old.width, height: old.height), into: marks,
                        maxDelta: maxDelta)
                }
            }
        }
        let regions = PixelRegions.group(mask, width: old.width, height: old.height).filter { $0.pixels >= minPixels }
        return PixelComparison(base: old, mask: mask, regions: regions, antialiasedPixels: antialiased)
    }

    /// Two pictures of one size, as bytes.
    struct Pair {
        let first: UnsafeBufferPointer<UInt8>
        let second: UnsafeBufferPointer<UInt8>
        let width: Int
        let height: Int
    }

    /// Marks each pixel of `pair` same, anti-aliased or changed; returns the number anti-aliased.
    private static func mark(_ pair: Pair, into marks: UnsafeMutableBufferPointer<UInt8>, maxDelta: Double) -> Int {
        var antialiased = 0
        let rowBytes = pair.width * 4
        guard let first = pair.first.baseAddress, let second = pair.second.baseAddress else { return 0 }
        for y in 0..<pair.height {
            let row = y * rowBytes
            // Most rows of two renders of a slide are identical: one comparison of the row skips them.
            if memcmp(first + row, second + row, rowBytes) == 0 { continue }
            for x in 0..<pair.width {
                let index = row + x * 4
                guard !samePixel(pair.first, pair.second, index, index) else { continue }
                let delta = colorDelta(pair.first, pair.second, index, index)
                guard abs(delta) > maxDelta else { continue }
                if isAntialiased(pair.first, pair.second, x: x, y: y, pair: pair)
                    || isAntialiased(pair.second, pair.first, x: x, y: y, pair: pair)
                {
                    marks[y * pair.width + x] = Mark.antialiased.rawValue
                    antialiased += 1
                } else {
                    marks[y * pair.width + x] = Mark.changed.rawValue
                }
            }
        }
        return antialiased
    }

    /// Whether the pixel at byte `i` of `a` and at byte `j` of `b` are the same four bytes.
    @inline(__always)
    static func samePixel(_ a: UnsafeBufferPointer<UInt8>, _ b: UnsafeBufferPointer<UInt8>, _ i: Int, _ j: Int) -> Bool
    {
        a[i] == b[j] && a[i + 1] == b[j + 1] && a[i + 2] == b[j + 2] && a[i + 3] == b[j + 3]
    }

    /// pixelmatch's YIQ distance of the pixel at byte `i` of `a` and at byte `j` of `b`, negative when the
    /// first is the brighter.
    @inline(__always)
    static func colorDelta(_ a: UnsafeBufferPointer<UInt8>, _ b: UnsafeBufferPointer<UInt8>, _ i: Int, _ j: Int)
        -> Double
    {
        let (r1, g1, b1) = blended(a, i)
        let (r2, g2, b2) = blended(b, j)
        let y1 = luma(r1, g1, b1)
        let y2 = luma(r2, g2, b2)
        let y = y1 - y2
        let inPhase =
            (r1 * 0.59597799 - g1 * 0.27417610 - b1 * 0.32180189)
            - (r2 * 0.59597799 - g2 * 0.27417610 - b2 * 0.32180189)
        let quadrature =
            (r1 * 0.21147017 - g1 * 0.52261711 + b1 * 0.31114694)
            - (r2 * 0.21147017 - g2 * 0.52261711 + b2 * 0.31114694)
        let delta = 0.5053 * y * y + 0.299 * inPhase * inPhase + 0.1957 * quadrature * quadrature
        return y1 > y2 ? -delta : delta
    }

    /// The brightness of the pixel at byte `i`, blended over white (pixelmatch's `yOnly` delta is a difference
    /// of two).
    @inline(__always)
    static func brightness(_ a: UnsafeBufferPointer<UInt8>, _ i: Int) -> Double {
        let (r, g, b) = blended(a, i)
        return luma(r, g, b)
    }

    /// The pixel at byte `i`, blended over white by its alpha (as it is when opaque, as screenshots are).
    @inline(__always)
    static func blended(_ a: UnsafeBufferPointer<UInt8>, _ i: Int) -> (Double, Double, Double) {
        guard a[i + 3] != 255 else { return (Double(a[i]), Double(a[i + 1]), Double(a[i + 2])) }
        let alpha = Double(a[i + 3]) * (1.0 / 255)
        return (
            255 + (Double(a[i]) - 255) * alpha, 255 + (Double(a[i + 1]) - 255) * alpha,
            255 + (Double(a[i + 2]) - 255) * alpha
        )
    }

    @inline(__always)
    static func luma(_ r: Double, _ g: Double, _ b: Double) -> Double {
        r * 0.29889531 + g * 0.58662247 + b * 0.11448223
    }

    /// pixelmatch's anti-aliasing test of pixel (`x`, `y`) of `image`: at most two identical neighbours, a
    /// darker and a brighter one, and the darkest or the brightest with many identical neighbours in both
    /// pictures.
    private static func isAntialiased(
        _ image: UnsafeBufferPointer<UInt8>, _ other: UnsafeBufferPointer<UInt8>, x: Int, y: Int, pair: Pair
    ) -> Bool {
        let (x0, x2, y0, y2) = (max(x - 1, 0), min(x + 1, pair.width - 1), max(y - 1, 0), min(y + 1, pair.height - 1))
        let center = brightness(image, (y * pair.width + x) * 4)
        var zeroes = x == x0 || x == x2 || y == y0 || y == y2 ? 1 : 0
        var (darkest, brightest) = (0.0, 0.0)
        var (darkX, darkY, brightX, brightY) = (0, 0, 0, 0)
        for ny in y0...y2 {
            for nx in x0...x2 where nx != x || ny != y {
                let delta = center - brightness(image, (ny * pair.width + nx) * 4)
                if delta == 0 {
                    zeroes += 1
                    if zeroes > 2 { return false }
                } else if delta < darkest {
                    (darkest, darkX, darkY) = (delta, nx, ny)
                } else if delta > brightest {
                    (brightest, brightX, brightY) = (delta, nx, ny)
                }
            }
        }
        guard darkest != 0, brightest != 0 else { return false }
        return (hasManySiblings(image, darkX, darkY, pair) && hasManySiblings(other, darkX, darkY, pair))
            || (hasManySiblings(image, brightX, brightY, pair) && hasManySiblings(other, brightX, brightY, pair))
    }

    /// Whether pixel (`x`, `y`) of `image` has more than two neighbours of exactly its colour.
    private static func hasManySiblings(_ image: UnsafeBufferPointer<UInt8>, _ x: Int, _ y: Int, _ pair: Pair) -> Bool {
        let (x0, x2, y0, y2) = (max(x - 1, 0), min(x + 1, pair.width - 1), max(y - 1, 0), min(y + 1, pair.height - 1))
        let center = (y * pair.width + x) * 4
        var zeroes = x == x0 || x == x2 || y == y0 || y == y2 ? 1 : 0
        for ny in y0...y2 {
            for nx in x0...x2 where nx != x || ny != y {
                if samePixel(image, image, center, (ny * pair.width + nx) * 4) {
                    zeroes += 1
                    if zeroes > 2 { return true }
                }
            }
        }
        return false
    }
}
