/// A rectangle of an image, in pixels: the bounds of a changed region.
package struct PixelBox: Sendable, Equatable, Hashable {
    package var x: Int
    package var y: Int
    package var width: Int
    package var height: Int

    /// Creates a box.
    package init(x: Int, y: Int, width: Int, height: Int) {
        self.x = x
        self.y = y
        self.width = width
        self.height = height
    }

    /// Whether `other` lies wholly inside this box.
    package func contains(_ other: PixelBox) -> Bool {
        other.x >= x && other.y >= y && other.x + other.width <= x + width && other.y + other.height <= y + height
    }
}
