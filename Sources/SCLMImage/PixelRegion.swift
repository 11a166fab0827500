/// A changed region of a comparison: the bounds of its changed pixels and how many there are.
package struct PixelRegion: Sendable, Equatable {
    package let box: PixelBox
    /// The changed pixels inside the box.
    package let pixels: Int

    /// Creates a region.
    package init(box: PixelBox, pixels: Int) {
        self.box = box
        self.pixels = pixels
    }
}
