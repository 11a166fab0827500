/// A picture in memory: `width` × `height` pixels, each four bytes (red, green, blue, alpha), row after row.
package struct RGBAImage: Sendable, Equatable {
    /// The largest width or height sclm reads or makes: the largest viewport (`--viewport` 8192x8192).
    package static let maxSide = 8192

    package let width: Int
    package let height: Int
    /// `width * height * 4` bytes, row-major, RGBA.
    package var pixels: [UInt8]

    /// An image of `pixels`; `nil` when the sides are not 1…``maxSide`` or `pixels` is not `width * height * 4` bytes.
    package init?(width: Int, height: Int, pixels: [UInt8]) {
        guard (1...Self.maxSide).contains(width), (1...Self.maxSide).contains(height),
            pixels.count == width * height * 4
        else { return nil }
        self.width = width
        self.height = height
        self.pixels = pixels
    }

    /// An image of `width` × `height` pixels of one colour (opaque white by default); the sides are clamped to
    /// 1…``maxSide``.
    package init(width: Int, height: Int, fill: (UInt8, UInt8, UInt8, UInt8) = (255, 255, 255, 255)) {
        self.width = min(max(width, 1), Self.maxSide)
        self.height = min(max(height, 1), Self.maxSide)
        var pixels = [UInt8](repeating: 0, count: self.width * self.height * 4)
        pixels.withUnsafeMutableBufferPointer { buffer in
            var index = 0
            while index < buffer.count {
                buffer[index] = fill.0
                buffer[index + 1] = fill.1
                buffer[index + 2] = fill.2
                buffer[index + 3] = fill.3
                index += 4
            }
        }
        self.pixels = pixels
    }

    /// Sets the pixel at (`x`, `y`), if it is inside the image.
    package mutating func set(_ x: Int, _ y: Int, to color: (UInt8, UInt8, UInt8, UInt8)) {
        guard (0..<width).contains(x), (0..<height).contains(y) else { return }
        let index = (y * width + x) * 4
        pixels[index] = color.0
        pixels[index + 1] = color.1
        pixels[index + 2] = color.2
        pixels[index + 3] = color.3
    }

    /// Fills the rectangle `box` (clipped to the image) with `color`.
    package mutating func fill(_ box: PixelBox, with color: (UInt8, UInt8, UInt8, UInt8)) {
        let (left, right) = (max(box.x, 0), min(box.x + box.width, width))
        let (top, bottom) = (max(box.y, 0), min(box.y + box.height, height))
        guard left < right, top < bottom else { return }
        for y in top..<bottom {
            for x in left..<right { set(x, y, to: color) }
        }
    }
}
