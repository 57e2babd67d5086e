import TerminalKit

/// Which cells a paint must write.
public enum GridDiff {
    /// Every point whose cell differs between the grids, row by row; every point of `new`
    /// when there is no previous grid or its size differs (after a resize nothing on screen
    /// can be trusted).
    public static func changedCells(from old: CellGrid?, to new: CellGrid) -> [Point] {
        var points: [Point] = []
        guard let old, old.size == new.size else {
            points.reserveCapacity(new.cells.count)
            for y in 0..<new.size.rows {
                for x in 0..<new.size.cols { points.append(Point(x: x, y: y)) }
            }
            return points
        }
        for y in 0..<new.size.rows {
            for x in 0..<new.size.cols where old[x, y] != new[x, y] {
                points.append(Point(x: x, y: y))
            }
        }
        return points
    }
}
