extension GridExport {
    /// An SVG of the screen as the terminal draws it in `theme`: a rectangle per run of
    /// background, then text placed by column (x = column × cell width) and stretched to its
    /// cells with `textLength`, so a wide glyph takes exactly two cells and nothing after it
    /// drifts, whatever font the viewer falls back to.
    public static func svg(_ grid: CellGrid, theme: Theme, title: String? = nil) -> String {
        let cellWidth = ExportMetrics.cellWidth
        let cellHeight = ExportMetrics.cellHeight
        let width = grid.size.cols * cellWidth
        let height = grid.size.rows * cellHeight
        let page = theme.defaultBackgroundRGB
        var out = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
        out +=
            "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"\(width)\" height=\"\(height)\""
            + " viewBox=\"0 0 \(width) \(height)\" font-family=\"\(ExportMetrics.fontFamily)\""
            + " font-size=\"\(ExportMetrics.fontSize)\" xml:space=\"preserve\">\n"
        if let title { out += "<title>\(escapeMarkup(title))</title>\n" }
        out += "<rect width=\"\(width)\" height=\"\(height)\" fill=\"\(page.hex)\"/>\n"
        var texts = ""
        for y in 0..<grid.size.rows {
            let segments = ExportSegment.row(y, of: grid, theme: theme)
            let top = y * cellHeight
            for run in backgroundRuns(segments) where run.color != page {
                // crispEdges: neighbouring rectangles meet without an anti-aliased seam.
                out +=
                    "<rect x=\"\(run.column * cellWidth)\" y=\"\(top)\" width=\"\(run.width * cellWidth)\""
                    + " height=\"\(cellHeight)\" fill=\"\(run.color.hex)\" shape-rendering=\"crispEdges\"/>\n"
            }
            for segment in segments where !segment.isBlank {
                var attributes =
                    "x=\"\(segment.column * cellWidth)\" y=\"\(top + ExportMetrics.baseline)\""
                    + " fill=\"\(segment.look.foreground.hex)\""
                if segment.look.bold { attributes += " font-weight=\"bold\"" }
                if segment.look.underline { attributes += " text-decoration=\"underline\"" }
                attributes +=
                    " textLength=\"\(segment.width * cellWidth)\" lengthAdjust=\"spacingAndGlyphs\""
                texts += "<text \(attributes)>\(escapeMarkup(segment.text))</text>\n"
            }
        }
        return out + texts + "</svg>\n"
    }

    /// An HTML page of the screen: one block a row, one inline block a segment, each exactly
    /// its cells wide (`ch` is a monospace font's cell) and a line tall, so backgrounds meet,
    /// box drawing joins up and a wide glyph keeps two cells. Styles are classes, one per look.
    public static func html(_ grid: CellGrid, theme: Theme, title: String? = nil) -> String {
        let page = theme.defaultBackgroundRGB
        var classes: [ExportLook: Int] = [:]
        var rows = ""
        for y in 0..<grid.size.rows {
            rows += "<div class=\"row\">"
            for segment in ExportSegment.row(y, of: grid, theme: theme) {
                let number = classes[segment.look] ?? classes.count
                classes[segment.look] = number
                rows +=
                    "<span class=\"s\(number)\" style=\"width:\(segment.width)ch\">\(escapeMarkup(segment.text))</span>"
            }
            rows += "</div>\n"
        }
        let cellHeight = ExportMetrics.cellHeight
        var css = """
            body { margin: 0; padding: 16px; background: \(page.hex); }
            .screen { display: inline-block; width: \(grid.size.cols)ch; font-family: \(ExportMetrics.fontFamily);
              font-size: \(ExportMetrics.fontSize)px; line-height: \(cellHeight)px; color: \(theme.defaultForegroundRGB.hex);
              background: \(page.hex); font-variant-ligatures: none; }
            .row { height: \(cellHeight)px; white-space: pre; overflow: hidden; }
            .row span { display: inline-block; height: \(cellHeight)px; vertical-align: top; overflow: hidden; }

            """
        for (look, number) in classes.sorted(by: { $0.value < $1.value }) {
            var rule = "color: \(look.foreground.hex); background: \(look.background.hex);"
            if look.bold { rule += " font-weight: bold;" }
            if look.underline { rule += " text-decoration: underline;" }
            css += ".s\(number) { \(rule) }\n"
        }
        let heading = escapeMarkup(title ?? "AccessDeck screen")
        return """
            <!DOCTYPE html>
            <html>
            <head>
            <meta charset="utf-8">
            <title>\(heading)</title>
            <style>
            \(css)</style>
            </head>
            <body>
            <div class="screen">
            \(rows)</div>
            </body>
            </html>

            """
    }

    /// Neighbouring segments of one background colour, merged into one rectangle.
    private static func backgroundRuns(_ segments: [ExportSegment]) -> [(column: Int, width: Int, color: RGB)] {
        var runs: [(column: Int, width: Int, color: RGB)] = []
        for segment in segments {
            if let last = runs.last, last.color == segment.look.background,
                last.column + last.width == segment.column
            {
                runs[runs.count - 1].width += segment.width
            } else {
                runs.append((segment.column, segment.width, segment.look.background))
            }
        }
        return runs
    }
}
