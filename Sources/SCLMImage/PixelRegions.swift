/// Groups the changed pixels of a comparison mask into regions with a grid merge: the picture is cut into
/// cells of ``cellSize`` pixels, each cell keeps the bounds and count of its changed pixels, and cells that
/// touch (sides or corners) join one region. The letters of an edited word, a few pixels apart, so make one
/// region, and two changes more than a cell apart stay two. The work is one pass over the mask and one over
/// the cells (64 × 48 for 1024 × 768).
enum PixelRegions {
    /// The side of a cell, in pixels.
    static let cellSize = 16

    /// The bounds and count of the changed pixels of one cell (or of a region while it is merged).
    private struct Bounds {
        var minX = Int.max
        var minY = Int.max
        var maxX = -1
        var maxY = -1
        var count = 0

        mutating func add(_ other: Bounds) {
            minX = min(minX, other.minX)
            minY = min(minY, other.minY)
            maxX = max(maxX, other.maxX)
            maxY = max(maxY, other.maxY)
            count += other.count
        }

        var region: PixelRegion {
            PixelRegion(box: PixelBox(x: minX, y: minY, width: maxX - minX + 1, height: maxY - minY + 1), pixels: count)
        }
    }

    /// The regions of the pixels `mask` marks changed, top to bottom, then left to right.
    static func group(_ mask: [UInt8], width: Int, height: Int) -> [PixelRegion] {
        let columns = (width + cellSize - 1) / cellSize
        let rows = (height + cellSize - 1) / cellSize
        var cells = [Bounds](repeating: Bounds(), count: columns * rows)
        mask.withUnsafeBufferPointer { marks in
            for y in 0..<height {
                let cellRow = (y / cellSize) * columns
                for x in 0..<width where marks[y * width + x] == PixelDiff.Mark.changed.rawValue {
                    let cell = cellRow + x / cellSize
                    cells[cell].minX = min(cells[cell].minX, x)
                    cells[cell].minY = min(cells[cell].minY, y)
                    cells[cell].maxX = max(cells[cell].maxX, x)
                    cells[cell].maxY = max(cells[cell].maxY, y)
                    cells[cell].count += 1
                }
            }
        }
        return components(of: &cells, columns: columns, rows: rows).map(\.region).sorted {
            ($0.box.y, $0.box.x) < ($1.box.y, $1.box.x)
        }
    }

    /// The cells with changed pixels joined into regions, 8-connected, by a flood fill over the grid (each
    /// cell emptied as it is taken).
    private static func components(of cells: inout [Bounds], columns: Int, rows: Int) -> [Bounds] {
        var regions: [Bounds] = []
        var pending: [Int] = []
        for start in cells.indices where cells[start].count > 0 {
            var region = Bounds()
            pending.append(start)
            while let cell = pending.popLast() {
                guard cells[cell].count > 0 else { continue }
                region.add(cells[cell])
                cells[cell] = Bounds()
                let (column, row) = (cell % columns, cell / columns)
                for neighbourRow in max(row - 1, 0)...min(row + 1, rows - 1) {
                    for neighbourColumn in max(column - 1, 0)...min(column + 1, columns - 1) {
                        let neighbour = neighbourRow * columns + neighbourColumn
                        if cells[neighbour].count > 0 { pending.append(neighbour) }
                    }
                }
            }
            regions.append(region)
        }
        return regions
    }
}
