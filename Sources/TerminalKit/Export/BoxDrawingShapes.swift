/// Box drawing in the pictures as shapes that span the whole cell, not font glyphs: a font's line
/// glyph rarely fills an 18 px line or sits mid-cell once stretched, so borders drawn as text leave
/// hairline gaps between rows and a right border off its corners. Each line is a rectangle on whole
/// pixels from the cell's edge to its centre; rounded corners are a 1 px stroke along the same
/// centre lines. A character outside this table stays text.
struct BoxDrawingShape: Equatable {
    enum Weight: Equatable {
        case light, heavy
        var thickness: Int { self == .light ? 1 : 2 }
    }

    var up: Weight?
    var down: Weight?
    var left: Weight?
    var right: Weight?
    var isRounded = false
    var isDashed = false

    /// The shape of a one-scalar grapheme, or nil when it is drawn as text.
    init?(_ grapheme: String) {
        let scalars = grapheme.unicodeScalars
        guard scalars.count == 1, let value = scalars.first?.value, let arms = Self.table[value] else { return nil }
        self = arms
    }

    private init(
        up: Weight? = nil, down: Weight? = nil, left: Weight? = nil, right: Weight? = nil, rounded: Bool = false,
        dashed: Bool = false
    ) {
        self.up = up
        self.down = down
        self.left = left
        self.right = right
        isRounded = rounded
        isDashed = dashed
    }

    private static let table: [UInt32: BoxDrawingShape] = {
        let l = Weight.light
        let h = Weight.heavy
        return [
            0x2500: .init(left: l, right: l), 0x2501: .init(left: h, right: h),
            0x2502: .init(up: l, down: l), 0x2503: .init(up: h, down: h),
            0x250C: .init(down: l, right: l), 0x250F: .init(down: h, right: h),
            0x2510: .init(down: l, left: l), 0x2513: .init(down: h, left: h),
            0x2514: .init(up: l, right: l), 0x2517: .init(up: h, right: h),
            0x2518: .init(up: l, left: l), 0x251B: .init(up: h, left: h),
            0x251C: .init(up: l, down: l, right: l), 0x2523: .init(up: h, down: h, right: h),
            0x2524: .init(up: l, down: l, left: l), 0x252B: .init(up: h, down: h, left: h),
            0x252C: .init(down: l, left: l, right: l), 0x2533: .init(down: h, left: h, right: h),
            0x2534: .init(up: l, left: l, right: l), 0x253B: .init(up: h, left: h, right: h),
            0x253C: .init(up: l, down: l, left: l, right: l), 0x254B: .init(up: h, down: h, left: h, right: h),
            0x254C: .init(left: l, right: l, dashed: true), 0x254E: .init(up: l, down: l, dashed: true),
            0x256D: .init(down: l, right: l, rounded: true), 0x256E: .init(down: l, left: l, rounded: true),
            0x256F: .init(up: l, left: l, rounded: true), 0x2570: .init(up: l, right: l, rounded: true),
        ]
    }()

    /// SVG elements for this shape in the cell at (column, row), in `color`. A vertical line is the
    /// cell's 5th pixel column (the 5th and 6th when heavy), a horizontal one its 9th pixel row, so
    /// neighbouring cells meet edge to edge.
    func svg(column: Int, row: Int, color: RGB) -> String {
        let x0 = column * ExportMetrics.cellWidth
        let y0 = row * ExportMetrics.cellHeight
        let width = ExportMetrics.cellWidth
        let height = ExportMetrics.cellHeight
        let centerX = x0 + Self.centerColumn
        let centerY = y0 + Self.centerRow
        if isRounded { return roundedCorner(centerX: centerX, centerY: centerY, x0: x0, y0: y0, color: color) }
        var rects: [(x: Int, y: Int, width: Int, height: Int)] = []
        let vertical = max(up?.thickness ?? 0, down?.thickness ?? 0)
        let horizontal = max(left?.thickness ?? 0, right?.thickness ?? 0)
        if isDashed {
            // Two dashes a cell, as ╌ and ╎ draw.
            if let left {
                rects += [(x0 + 1, centerY, 3, left.thickness), (x0 + 5, centerY, 3, left.thickness)]
            }
            if let up {
                rects += [(centerX, y0 + 2, up.thickness, 6), (centerX, y0 + 11, up.thickness, 6)]
            }
        } else if up == nil, down == nil, let left, left == right {
            rects.append((x0, centerY, width, left.thickness))
        } else if left == nil, right == nil, let up, up == down {
            rects.append((centerX, y0, up.thickness, height))
        } else {
            // Each arm reaches across the crossing line, so a corner has no notch and no nub.
            if let left { rects.append((x0, centerY, Self.centerColumn + max(vertical, 1), left.thickness)) }
            if let right { rects.append((centerX, centerY, width - Self.centerColumn, right.thickness)) }
            if let up { rects.append((centerX, y0, up.thickness, Self.centerRow + max(horizontal, 1))) }
            if let down { rects.append((centerX, centerY, down.thickness, height - Self.centerRow)) }
        }
        return rects.map {
            "<rect x=\"\($0.x)\" y=\"\($0.y)\" width=\"\($0.width)\" height=\"\($0.height)\" fill=\"\(color.hex)\""
                + " shape-rendering=\"crispEdges\"/>\n"
        }.joined()
    }

    /// ╭╮╯╰: from the cell's side edge along the centre row, a quarter turn, then along the centre
    /// column to its top or bottom edge, on the same pixels as the straight lines.
    private func roundedCorner(centerX: Int, centerY: Int, x0: Int, y0: Int, color: RGB) -> String {
        let radius = 4.0
        let midX = Double(centerX) + 0.5
        let midY = Double(centerY) + 0.5
        let edgeX = Double(left != nil ? x0 : x0 + ExportMetrics.cellWidth)
        let edgeY = Double(up != nil ? y0 : y0 + ExportMetrics.cellHeight)
        let towardsX = left != nil ? -radius : radius
        let towardsY = up != nil ? -radius : radius
        let path =
            "M\(Self.number(edgeX)) \(Self.number(midY)) H\(Self.number(midX + towardsX))"
            + " Q\(Self.number(midX)) \(Self.number(midY)) \(Self.number(midX)) \(Self.number(midY + towardsY))"
            + " V\(Self.number(edgeY))"
        return "<path d=\"\(path)\" fill=\"none\" stroke=\"\(color.hex)\" stroke-width=\"1\"/>\n"
    }

    /// The pixel column and row, from the cell's corner, that a light line fills.
    static let centerColumn = 4
    static let centerRow = 8

    private static func number(_ value: Double) -> String {
        value == value.rounded() ? String(Int(value)) : String(value)
    }
}

/// ▀ ▄ █ in the pictures as rectangles on whole pixels, for the same reason as box drawing: a font's
/// block glyphs rarely reach the top and bottom of the 18 px line, so a QR code drawn as text would have
/// light seams between its rows and not scan. A half is 9 px of the 18, a module of `QRCodeBlock`
/// exactly square in a 9 px wide cell.
struct BlockShape: Equatable {
    var top: Bool
    var bottom: Bool

    init?(_ grapheme: String) {
        switch grapheme {
        case "▀": (top, bottom) = (true, false)
        case "▄": (top, bottom) = (false, true)
        case "█": (top, bottom) = (true, true)
        default: return nil
        }
    }

    func svg(column: Int, row: Int, color: RGB) -> String {
        let half = ExportMetrics.cellHeight / 2
        let y = row * ExportMetrics.cellHeight + (top ? 0 : half)
        let height = top && bottom ? ExportMetrics.cellHeight : half
        return "<rect x=\"\(column * ExportMetrics.cellWidth)\" y=\"\(y)\" width=\"\(ExportMetrics.cellWidth)\""
            + " height=\"\(height)\" fill=\"\(color.hex)\" shape-rendering=\"crispEdges\"/>\n"
    }
}

/// A cell a picture draws as shapes rather than as a font's glyph.
enum CellShape: Equatable {
    case line(BoxDrawingShape)
    case block(BlockShape)

    init?(_ grapheme: String) {
        if let line = BoxDrawingShape(grapheme) {
            self = .line(line)
        } else if let block = BlockShape(grapheme) {
            self = .block(block)
        } else {
            return nil
        }
    }

    func svg(column: Int, row: Int, color: RGB) -> String {
        switch self {
        case .line(let shape): return shape.svg(column: column, row: row, color: color)
        case .block(let shape): return shape.svg(column: column, row: row, color: color)
        }
    }
}
