import TerminalKit

/// A blank grid to render one component into.
func canvas(_ cols: Int = 80, _ rows: Int = 24) -> CellGrid { CellGrid(size: Size(cols: cols, rows: rows)) }

/// A hub-like screen to draw overlays over, so snapshots show what is dimmed below them.
func hubScreen(_ size: Size = .standard) -> CellGrid {
    var grid = CellGrid(size: size)
    TitleBar("Account access", canGoBack: true).render(into: &grid, in: Rect(x: 0, y: 0, width: size.cols, height: 2))
    let rows = [
        ListRow("Phone number", detail: "+995 511 100 000", control: .pencil, isSelected: true),
        ListRow("Email & password", detail: "jdoe@mail.com", control: .chevron),
        ListRow("Apple", detail: "Connected", control: .chevron),
        ListRow("Google", detail: "Connected", control: .chevron),
    ]
    for (index, row) in rows.enumerated() {
        row.render(into: &grid, in: Rect(x: 0, y: 3 + index * 3, width: size.cols, height: 2))
    }
    return grid
}

/// Every cell of a grid with a style property, for asserting what is dimmed.
func cells(of grid: CellGrid, in rect: Rect) -> [Cell] {
    var result: [Cell] = []
    for y in rect.y..<rect.maxY {
        for x in rect.x..<rect.maxX { result.append(grid[x, y]) }
    }
    return result
}

/// Lets `#expect` check the result of a mutating call: the macro cannot call a mutating
/// method on its captured copy, but it can pass the already computed result to a function.
func changed(_ result: Bool) -> Bool { result }
