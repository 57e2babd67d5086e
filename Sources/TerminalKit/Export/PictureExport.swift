extension GridExport {
    /// An SVG of the screen as the terminal draws it in `theme`: a rectangle per run of
    /// background, box drawing and ▀ ▄ █ as shapes that fill their cells (`CellShape`), underlines as
    /// lines under their cells, then the text a word at a time with every character placed at its own
    /// cell (an x per character), so no viewer's spacing moves anything. A wide glyph is stretched to its
    /// two cells with `textLength`. No text element holds a space: browsers drop `xml:space` and
    /// collapsed the padded runs this once wrote, then stretched the words left across the row (issue 50).
    /// Padding around the screen always; `frame` puts it in a window titled `title`. `emoji` has pictures for
    /// emoji (a PNG's data URI by grapheme, from `emojiGraphemes`): a rasteriser without colour fonts, as librsvg
    /// is, drew flags grey.
    public static func svg(
        _ grid: CellGrid, theme: Theme, title: String? = nil, frame: Bool = false, emoji: [String: String] = [:]
    ) -> String {
        let cellWidth = ExportMetrics.cellWidth
        let cellHeight = ExportMetrics.cellHeight
        let padding = ExportMetrics.padding
        let screenWidth = grid.size.cols * cellWidth + 2 * padding
        let screenHeight = grid.size.rows * cellHeight + 2 * padding
        let page = theme.defaultBackgroundRGB
        let margin = frame ? ExportMetrics.frameMargin : 0
        let bar = frame ? ExportMetrics.titleBarHeight : 0
        let width = screenWidth + 2 * margin
        let height = screenHeight + bar + 2 * margin
        var out = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
        out +=
            "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"\(width)\" height=\"\(height)\""
            + " viewBox=\"0 0 \(width) \(height)\" font-family=\"\(ExportMetrics.fontFamily)\""
            + " font-size=\"\(ExportMetrics.fontSize)\">\n"
        if let title { out += "<title>\(escapeMarkup(title))</title>\n" }
        if frame {
            out += windowFrame(width: screenWidth, height: screenHeight + bar, title: title ?? "", theme: theme)
        } else {
            out += "<rect width=\"\(width)\" height=\"\(height)\" fill=\"\(page.hex)\"/>\n"
        }
        out += "<g transform=\"translate(\(margin + padding) \(margin + bar + padding))\">\n"
        var texts = ""
        var lines = ""
        for y in 0..<grid.size.rows {
            let segments = ExportSegment.row(y, of: grid, theme: theme)
            let top = y * cellHeight
            for run in backgroundRuns(segments) where run.color != page {
                // crispEdges: neighbouring rectangles meet without an anti-aliased seam.
                out +=
                    "<rect x=\"\(run.column * cellWidth)\" y=\"\(top)\" width=\"\(run.width * cellWidth)\""
                    + " height=\"\(cellHeight)\" fill=\"\(run.color.hex)\" shape-rendering=\"crispEdges\"/>\n"
            }
            for segment in segments {
                let (text, shapes) = segment.splittingShapes()
                for (column, shape) in shapes {
                    lines += shape.svg(column: column, row: y, color: segment.look.foreground)
                }
                if segment.look.underline {
                    lines +=
                        "<rect x=\"\(segment.column * cellWidth)\" y=\"\(top + ExportMetrics.underline)\""
                        + " width=\"\(segment.width * cellWidth)\" height=\"1\""
                        + " fill=\"\(segment.look.foreground.hex)\" shape-rendering=\"crispEdges\"/>\n"
                }
                var look = " y=\"\(top + ExportMetrics.baseline)\" fill=\"\(segment.look.foreground.hex)\""
                if segment.isEmoji { look += " font-family=\"\(ExportMetrics.emojiFontFamily)\"" }
                if segment.look.bold { look += " font-weight=\"bold\"" }
                if segment.isEmoji, let picture = emoji[text] {
                    texts +=
                        "<image x=\"\(segment.column * cellWidth)\" y=\"\(top)\" width=\"\(segment.width * cellWidth)\""
                        + " height=\"\(cellHeight)\" href=\"\(picture)\"/>\n"
                    continue
                }
                if segment.isOwnGlyph {
                    guard text != " " else { continue }
                    texts +=
                        "<text x=\"\(segment.column * cellWidth)\"\(look) textLength=\"\(segment.width * cellWidth)\""
                        + " lengthAdjust=\"spacingAndGlyphs\">\(escapeMarkup(text))</text>\n"
                    continue
                }
                for word in words(text, from: segment.column) {
                    let xs = word.columns.map { String($0 * cellWidth) }.joined(separator: " ")
                    texts += "<text x=\"\(xs)\"\(look)>\(escapeMarkup(word.text))</text>\n"
                }
            }
        }
        return out + lines + texts + "</g>\n</svg>\n"
    }

    /// A window around the screen, as slides show a terminal: rounded corners, a title bar with
    /// the three buttons and the title in the middle, on a transparent margin.
    private static func windowFrame(width: Int, height: Int, title: String, theme: Theme) -> String {
        let page = theme.defaultBackgroundRGB
        let foreground = theme.defaultForegroundRGB
        let margin = ExportMetrics.frameMargin
        let bar = ExportMetrics.titleBarHeight
        var out =
            "<rect x=\"\(margin)\" y=\"\(margin)\" width=\"\(width)\" height=\"\(height)\" rx=\"8\""
            + " fill=\"\(page.hex)\" stroke=\"\(page.mixed(with: foreground, 0.25).hex)\"/>\n"
        out +=
            "<line x1=\"\(margin)\" y1=\"\(margin + bar)\" x2=\"\(margin + width)\" y2=\"\(margin + bar)\""
            + " stroke=\"\(page.mixed(with: foreground, 0.15).hex)\"/>\n"
        for (index, color) in ["#ff5f57", "#febc2e", "#28c840"].enumerated() {
            out += "<circle cx=\"\(margin + 18 + index * 20)\" cy=\"\(margin + bar / 2)\" r=\"6\" fill=\"\(color)\"/>\n"
        }
        out +=
            "<text x=\"\(margin + width / 2)\" y=\"\(margin + bar / 2 + 5)\" text-anchor=\"middle\""
            + " font-family=\"\(ExportMetrics.titleFontFamily)\" font-size=\"13\""
            + " fill=\"\(page.mixed(with: foreground, 0.7).hex)\">\(escapeMarkup(title))</text>\n"
        return out
    }

    /// An HTML page of the screen: one block a row, one inline block a segment, each exactly
    /// its cells wide and a line tall, so backgrounds meet and a wide glyph keeps two cells. Cells are the
    /// SVG's, 9 px: the letter spacing makes up the difference from the font's own advance (`1ch`), so no
    /// column drifts whatever monospace font the browser picks. Box drawing and ▀ ▄ █ are not text: an SVG laid over the rows draws the
    /// same shapes as the SVG export, stretched to the rows' size, so it joins whatever the font.
    /// Styles are classes, one per look. Padding around the screen always; `frame` puts it in a
    /// window titled `title`.
    public static func html(_ grid: CellGrid, theme: Theme, title: String? = nil, frame: Bool = false) -> String {
        let page = theme.defaultBackgroundRGB
        let foreground = theme.defaultForegroundRGB
        var classes: [ExportLook: Int] = [:]
        var rows = ""
        var lines = ""
        for y in 0..<grid.size.rows {
            rows += "<div class=\"row\">"
            for segment in ExportSegment.row(y, of: grid, theme: theme) {
                let number = classes[segment.look] ?? classes.count
                classes[segment.look] = number
                let (text, shapes) = segment.splittingShapes()
                for (column, shape) in shapes {
                    lines += shape.svg(column: column, row: y, color: segment.look.foreground)
                }
                // The emoji font goes on a span inside the cell's: a width in `ch` on the emoji font's own span was
                // that font's, wider, and moved every cell after a flag (issue 50).
                let content = segment.isEmoji ? "<span class=\"e\">\(escapeMarkup(text))</span>" : escapeMarkup(text)
                rows +=
                    "<span class=\"s\(number)\" style=\"width:\(segment.width * ExportMetrics.cellWidth)px\">\(content)</span>"
            }
            rows += "</div>\n"
        }
        let cellHeight = ExportMetrics.cellHeight
        let padding = ExportMetrics.padding
        var css = """
            body { margin: 0; padding: 16px; background: \(frame ? "transparent" : page.hex); }
            .screen { display: inline-block; padding: \(padding)px; font-family: \(ExportMetrics.fontFamily);
              font-size: \(ExportMetrics.fontSize)px; line-height: \(cellHeight)px; color: \(foreground.hex);
              background: \(page.hex); font-variant-ligatures: none; }
            .grid { position: relative; width: \(grid.size.cols * ExportMetrics.cellWidth)px; }
            .lines { position: absolute; left: 0; top: 0; width: 100%; height: 100%; }
            .row { height: \(cellHeight)px; white-space: pre; overflow: hidden;
              letter-spacing: calc(\(ExportMetrics.cellWidth)px - 1ch); }
            .row > span { display: inline-block; height: \(cellHeight)px; vertical-align: top; overflow: hidden; }
            .e { font-family: \(ExportMetrics.emojiFontFamily); }

            """
        if frame {
            css += """
                .window { display: inline-block; border: 1px solid \(page.mixed(with: foreground, 0.25).hex);
                  border-radius: 8px; overflow: hidden; background: \(page.hex); }
                .bar { position: relative; height: \(ExportMetrics.titleBarHeight)px;
                  border-bottom: 1px solid \(page.mixed(with: foreground, 0.15).hex);
                  font: 13px/\(ExportMetrics.titleBarHeight)px \(ExportMetrics.titleFontFamily);
                  color: \(page.mixed(with: foreground, 0.7).hex); text-align: center; }
                .dots { position: absolute; left: 12px; top: 9px; display: flex; gap: 8px; }
                .dots i { width: 12px; height: 12px; border-radius: 50%; }

                """
        }
        for (look, number) in classes.sorted(by: { $0.value < $1.value }) {
            var rule = "color: \(look.foreground.hex); background: \(look.background.hex);"
            if look.bold { rule += " font-weight: bold;" }
            if look.underline { rule += " text-decoration: underline;" }
            css += ".s\(number) { \(rule) }\n"
        }
        let heading = escapeMarkup(title ?? "AccessDeck screen")
        let overlayWidth = grid.size.cols * ExportMetrics.cellWidth
        let overlayHeight = grid.size.rows * cellHeight
        var screen = """
            <div class="screen"><div class="grid">
            \(rows)<svg class="lines" xmlns="http://www.w3.org/2000/svg" viewBox="0 0 \(overlayWidth) \(overlayHeight)" preserveAspectRatio="none" aria-hidden="true">
            \(lines)</svg>
            </div></div>
            """
        if frame {
            let dots = ["#ff5f57", "#febc2e", "#28c840"].map { "<i style=\"background:\($0)\"></i>" }.joined()
            screen =
                "<div class=\"window\"><div class=\"bar\"><span class=\"dots\">\(dots)</span>\(heading)</div>\n"
                + screen + "\n</div>"
        }
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
            \(screen)
            </body>
            </html>

            """
    }

    /// The graphemes of the grid a colour emoji font draws (flags, emoji): what `svg`'s `emoji` may have pictures of.
    public static func emojiGraphemes(in grid: CellGrid) -> Set<String> {
        var found: Set<String> = []
        for y in 0..<grid.size.rows {
            for segment in ExportSegment.row(y, of: grid, theme: .dark) where segment.isEmoji {
                found.insert(segment.text)
            }
        }
        return found
    }

    /// The runs of a one-cell-a-character text that are not spaces, each with the column of every character.
    private static func words(_ text: String, from column: Int) -> [(text: String, columns: [Int])] {
        var words: [(text: String, columns: [Int])] = []
        var current: (text: String, columns: [Int]) = ("", [])
        for (offset, character) in text.enumerated() {
            if character == " " {
                if !current.text.isEmpty { words.append(current) }
                current = ("", [])
            } else {
                current.text.append(character)
                current.columns.append(column + offset)
            }
        }
        if !current.text.isEmpty { words.append(current) }
        return words
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
