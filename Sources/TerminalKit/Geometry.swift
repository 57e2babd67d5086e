/// A terminal size in columns and rows.
public struct Size: Hashable, Sendable, CustomStringConvertible {
    public var cols: Int
    public var rows: Int
    public init(cols: Int, rows: Int) {
        self.cols = cols
        self.rows = rows
    }
    public static let standard = Size(cols: 80, rows: 24)
    /// Below this the app draws a "Terminal too small" notice instead of a screen.
    public static let minimum = Size(cols: 40, rows: 12)
    public var description: String { "\(cols)x\(rows)" }

    /// Parses "80x24".
    public init?(parsing text: String) {
        let parts = text.lowercased().split(separator: "x")
        guard parts.count == 2, let cols = Int(parts[0]), let rows = Int(parts[1]), cols > 0, rows > 0
        else { return nil }
        self.init(cols: cols, rows: rows)
    }

    public func fits(_ other: Size) -> Bool { cols >= other.cols && rows >= other.rows }
}

/// A column/row position; (0, 0) is the top-left cell.
public struct Point: Hashable, Sendable {
    public var x: Int
    public var y: Int
    public init(x: Int, y: Int) {
        self.x = x
        self.y = y
    }
}

/// A rectangle of cells.
public struct Rect: Hashable, Sendable {
    public var x: Int
    public var y: Int
    public var width: Int
    public var height: Int

    public init(x: Int, y: Int, width: Int, height: Int) {
        self.x = x
        self.y = y
        self.width = max(0, width)
        self.height = max(0, height)
    }

    public init(size: Size) { self.init(x: 0, y: 0, width: size.cols, height: size.rows) }

    public var maxX: Int { x + width }
    public var maxY: Int { y + height }
    public var isEmpty: Bool { width == 0 || height == 0 }

    public func inset(by amount: Int) -> Rect { inset(horizontal: amount, vertical: amount) }

    public func inset(horizontal: Int = 0, vertical: Int = 0) -> Rect {
        Rect(x: x + horizontal, y: y + vertical, width: width - 2 * horizontal, height: height - 2 * vertical)
    }

    /// The top `rows` rows, and what is left below them.
    public func splitTop(_ rows: Int) -> (top: Rect, rest: Rect) {
        let taken = min(max(0, rows), height)
        return (
            Rect(x: x, y: y, width: width, height: taken),
            Rect(x: x, y: y + taken, width: width, height: height - taken)
        )
    }

    /// The bottom `rows` rows, and what is left above them.
    public func splitBottom(_ rows: Int) -> (rest: Rect, bottom: Rect) {
        let taken = min(max(0, rows), height)
        return (
            Rect(x: x, y: y, width: width, height: height - taken),
            Rect(x: x, y: maxY - taken, width: width, height: taken)
        )
    }

    /// A rectangle of at most the given size, centred in this one.
    public func centered(width: Int, height: Int) -> Rect {
        let w = min(width, self.width)
        let h = min(height, self.height)
        return Rect(x: x + (self.width - w) / 2, y: y + (self.height - h) / 2, width: w, height: h)
    }

    public func row(_ index: Int) -> Rect { Rect(x: x, y: y + index, width: width, height: 1) }
}
