import SCLMImage

/// What the pictures of one changed or renamed slide showed (`sclm diff` without `--no-render`).
struct SlidePictures: Sendable, Equatable {
    /// The changed pixels of the regions reported (0 when the slide looks the same).
    var changedPixels = 0
    /// The changed regions, top to bottom.
    var regions: [PixelRegion] = []
    /// The old and new renders and the diff image (`nil` when no pixel changed), relative to the images
    /// folder.
    var oldImage: String?
    var newImage: String?
    var diffImage: String?
    /// Why the slide was not compared (a revision's render of it failed), else `nil`.
    var problem: String?
}

extension SlidePictures {
    /// `1234 pixels changed in 2 regions`, `no pixel changed`, or `not compared: NEW: not rendered: …`.
    var summary: String {
        if let problem { return "not compared: \(problem)" }
        guard changedPixels > 0 else { return "no pixel changed" }
        let pixels = changedPixels == 1 ? "1 pixel" : "\(changedPixels) pixels"
        let regions = self.regions.count == 1 ? "1 region" : "\(self.regions.count) regions"
        return "\(pixels) changed in \(regions)"
    }
}
