import Foundation
import SnapshotSupport
import Testing

@testable import TerminalKit

#if canImport(FoundationXML)
    import FoundationXML
#endif

@Suite struct GridExportTests {
    /// A box with a wide CJK pair, a flag, markup characters, a selected (reverse) row, a
    /// surface background and bold, dim and underlined text: everything an export must keep.
    func sample() -> CellGrid {
        var grid = canvas(24, 6)
        grid.drawBox(Rect(x: 0, y: 0, width: 24, height: 5), lines: .rounded)
        grid.put("日本 <&> \"q\"", at: Point(x: 2, y: 1), style: .plain)
        grid.put("🇬🇪 Georgia", at: Point(x: 2, y: 2), style: Style(attributes: .reverse))
        grid.fill(Rect(x: 14, y: 2, width: 8, height: 1), style: Style(background: .surface))
        grid.put("Send", at: Point(x: 2, y: 3), style: Style.accent.with(.bold))
        grid.put("off", at: Point(x: 8, y: 3), style: Style.muted.with(.dim))
        grid.put("link", at: Point(x: 13, y: 3), style: Style.plain.with(.underline))
        grid.put("Esc back", at: Point(x: 0, y: 5), style: .muted)
        return grid
    }

    /// ESC shown as ␛ so the snapshot reads as text and a terminal printing it stays sane.
    func visible(_ ansi: String) -> String { ansi.replacingOccurrences(of: "\u{1B}", with: "␛") }

    @Test func textIsTheGridsText() {
        let text = GridExport.export(sample(), as: .text, theme: .dark)
        #expect(text == sample().text() + "\n")
        assertSnapshot(of: text, named: "export-sample-text")
    }

    @Test func ansiSnapshotDark() {
        assertSnapshot(of: visible(GridExport.ansi(sample(), theme: .dark)), named: "export-sample-ansi-dark")
    }

    @Test func svgSnapshotDark() {
        assertSnapshot(of: GridExport.svg(sample(), theme: .dark, title: "sample"), named: "export-sample-svg-dark")
    }

    @Test func htmlSnapshotLight() {
        assertSnapshot(
            of: GridExport.html(sample(), theme: .light, title: "sample"), named: "export-sample-html-light")
    }

    @Test func ansiUsesPaletteCodesAndResetsEveryLine() {
        let ansi = GridExport.ansi(sample(), theme: .dark)
        // Every cell carries the theme's own background (233), as the terminal shows it.
        #expect(ansi.contains("\u{1B}[0;1;38;5;75;48;5;233mSend"))
        #expect(ansi.contains("\u{1B}[0;2;38;5;248;48;5;233moff"))
        #expect(ansi.contains("\u{1B}[0;7;38;5;252;48;5;233m🇬🇪 Georgia"))
        #expect(ansi.contains("48;5;236m"))
        let lines = ansi.split(separator: "\n", omittingEmptySubsequences: false).dropLast()
        #expect(lines.count == 6)
        #expect(lines.allSatisfy { $0.hasSuffix("\u{1B}[0m") })
    }

    @Test func monoAnsiHasAttributesButNoColour() {
        let ansi = GridExport.ansi(sample(), theme: .mono)
        #expect(!ansi.contains("38;5;"))
        #expect(!ansi.contains("48;5;"))
        #expect(ansi.contains("\u{1B}[0;7m🇬🇪 Georgia"))
        #expect(ansi.contains("\u{1B}[0;1mSend"))
        #expect(ansi.contains("\u{1B}[0;4mlink"))
    }

    @Test func ansiSkipsContinuationCells() {
        var grid = canvas(4, 1)
        grid.put("日x", at: Point(x: 0, y: 0), style: .plain)
        #expect(GridExport.ansi(grid, theme: .dark) == "\u{1B}[0;38;5;252;48;5;233m日x \u{1B}[0m\n")
    }

    @Test func svgIsWellFormedXMLInEveryTheme() throws {
        for name in Theme.Name.allCases {
            let svg = GridExport.svg(sample(), theme: .named(name), title: "hub <&> \"x\"")
            let parser = XMLParser(data: Data(svg.utf8))
            let collector = ElementCollector()
            parser.delegate = collector
            #expect(parser.parse(), "\(name): \(String(describing: parser.parserError))")
            #expect(collector.elements.first == "svg")
            #expect(collector.elements.contains("text"))
            #expect(collector.texts.joined().contains("<&>"))
        }
    }

    @Test func markupIsEscaped() {
        var grid = canvas(12, 1)
        grid.put("<b>&'\"</b>", at: Point(x: 0, y: 0), style: .plain)
        for output in [GridExport.svg(grid, theme: .dark), GridExport.html(grid, theme: .dark)] {
            #expect(output.contains("&lt;b&gt;&amp;&#39;&quot;&lt;/b&gt;"))
            #expect(!output.contains("<b>"))
        }
    }

    @Test func aColumnAfterAWideGlyphIsPlacedByItsColumn() {
        var grid = canvas(6, 1)
        grid.put("日x", at: Point(x: 0, y: 0), style: .plain)
        grid.put("y", at: Point(x: 4, y: 0), style: .accent)
        let svg = GridExport.svg(grid, theme: .dark)
        #expect(
            svg.contains(
                "<text x=\"0\" y=\"14\" fill=\"#d0d0d0\" textLength=\"18\" lengthAdjust=\"spacingAndGlyphs\">日</text>"))
        #expect(svg.contains("<text x=\"18\" y=\"14\" fill=\"#d0d0d0\">x</text>"))
        #expect(svg.contains("<text x=\"36\" y=\"14\" fill=\"#5fafff\""))
        let html = GridExport.html(grid, theme: .dark)
        #expect(html.contains("style=\"width:18px\">日</span><span class=\"s0\" style=\"width:18px\">x </span>"))
    }

    /// Issue 50: a browser ignores `xml:space` and collapses spaces, so a run padded with spaces and stretched with
    /// `textLength` came out "E m a i l" across the row. Each character is placed at its cell, and no text holds a space.
    @Test func svgPlacesEveryCharacterAtItsCellAndNoTextHoldsASpace() {
        var grid = canvas(24, 1)
        grid.put("  Email & password", at: Point(x: 0, y: 0), style: .plain)
        let svg = GridExport.svg(grid, theme: .dark)
        #expect(svg.contains("<text x=\"18 27 36 45 54\" y=\"14\" fill=\"#d0d0d0\">Email</text>"))
        #expect(svg.contains("<text x=\"72\" y=\"14\" fill=\"#d0d0d0\">&amp;</text>"))
        #expect(svg.contains("<text x=\"90 99 108 117 126 135 144 153\" y=\"14\" fill=\"#d0d0d0\">password</text>"))
        #expect(!svg.contains("textLength"))
        #expect(!svg.contains("xml:space"))
        let texts = svg.components(separatedBy: "<text ").dropFirst().map { $0.split(separator: ">")[1] }
        #expect(texts.allSatisfy { !$0.contains(" ") })
    }

    @Test func anUnderlineIsALineUnderItsCellsSpacesIncluded() {
        var grid = canvas(8, 1)
        grid.put("a b", at: Point(x: 2, y: 0), style: Style(attributes: .underline))
        let svg = GridExport.svg(grid, theme: .dark)
        #expect(svg.contains("<rect x=\"18\" y=\"16\" width=\"27\" height=\"1\" fill=\"#d0d0d0\""))
        #expect(!svg.contains("text-decoration"))
    }

    @Test func aFlagTakesTwoCellsOnItsOwn() {
        var grid = canvas(4, 1)
        grid.put("🇬🇪x", at: Point(x: 0, y: 0), style: .plain)
        let segments = ExportSegment.row(0, of: grid, theme: .dark)
        #expect(segments.map(\.column) == [0, 2])
        #expect(segments.map(\.width) == [2, 2])
        #expect(segments[0].isOwnGlyph)
    }

    @Test func boxDrawingRunsTogetherInOneSegment() {
        var grid = canvas(6, 2)
        grid.drawBox(grid.bounds, lines: .rounded)
        let segments = ExportSegment.row(0, of: grid, theme: .dark)
        #expect(segments.count == 1)
        #expect(segments[0].text == "╭────╮")
    }

    @Test func reverseSwapsTheDrawnColours() {
        let dark = ExportLook(Style(attributes: .reverse), theme: .dark)
        #expect(dark.foreground == RGB(18, 18, 18))
        #expect(dark.background == RGB(208, 208, 208))
        let light = ExportLook(Style(foreground: .accent, attributes: .reverse), theme: .light)
        #expect(light.foreground == RGB(255, 255, 255))
        #expect(light.background == RGB(0, 95, 175))
        let svg = GridExport.svg(sample(), theme: .dark)
        #expect(svg.contains("fill=\"#d0d0d0\" shape-rendering"))
        #expect(
            svg.contains(
                "fill=\"#121212\" font-family=\"\(ExportMetrics.emojiFontFamily)\" textLength=\"18\""
                    + " lengthAdjust=\"spacingAndGlyphs\">🇬🇪</text>"))
    }

    @Test func rolesMapToEachThemesColours() {
        #expect(ExportLook(.accent, theme: .dark).foreground.hex == "#5fafff")
        #expect(ExportLook(.accent, theme: .light).foreground.hex == "#005faf")
        #expect(ExportLook(.plain, theme: .dark).background.hex == "#121212")
        #expect(ExportLook(.plain, theme: .light).foreground.hex == "#262626")
        #expect(ExportLook(.plain, theme: .light).background.hex == "#ffffff")
        #expect(ExportLook(.accent, theme: .mono).foreground == ExportLook(.plain, theme: .mono).foreground)
        #expect(ExportLook(Style(background: .surface), theme: .dark).background.hex == "#303030")
    }

    @Test func dimDrawsHalfwayToTheBackground() {
        let dim = ExportLook(Style(attributes: .dim), theme: .dark)
        #expect(dim.foreground == RGB(113, 113, 113))
    }

    @Test func htmlGivesEachLookOneClass() {
        let html = GridExport.html(sample(), theme: .dark)
        #expect(html.contains(".s0 { color: #8a8a8a; background: #121212; }"))  // the border, first drawn
        #expect(html.contains(".s1 { color: #d0d0d0; background: #121212; }"))
        #expect(html.contains("font-weight: bold;"))
        #expect(html.contains("text-decoration: underline;"))
        #expect(html.components(separatedBy: "<div class=\"row\">").count == 7)
    }

    @Test func paletteMatchesXterm() {
        #expect(XtermPalette.rgb(9) == RGB(255, 0, 0))
        #expect(XtermPalette.rgb(16) == RGB(0, 0, 0))
        #expect(XtermPalette.rgb(75) == RGB(95, 175, 255))
        #expect(XtermPalette.rgb(231) == RGB(255, 255, 255))
        #expect(XtermPalette.rgb(232) == RGB(8, 8, 8))
        #expect(XtermPalette.rgb(255) == RGB(238, 238, 238))
    }

    @Test func fileNameHasScreenAndLocalTime() {
        let date = Date(timeIntervalSince1970: 1_800_000_000)
        let utc = TimeZone(identifier: "UTC")!
        #expect(
            ExportFormat.svg.fileName(screenID: "hub:android", at: date, timeZone: utc)
                == "accessdeck-hub-android-20270115-080000.svg")
        let tbilisi = TimeZone(identifier: "Asia/Tbilisi")!
        #expect(
            ExportFormat.text.fileName(screenID: "hub", at: date, timeZone: tbilisi)
                == "accessdeck-hub-20270115-120000.txt")
        #expect(ExportFormat.allCases.map(\.fileExtension) == ["txt", "ans", "svg", "html"])
    }
}

/// Element names and character data seen by XMLParser, in document order.
private final class ElementCollector: NSObject, XMLParserDelegate {
    var elements: [String] = []
    var texts: [String] = []

    func parser(
        _ parser: XMLParser, didStartElement elementName: String, namespaceURI: String?,
        qualifiedName qName: String?, attributes attributeDict: [String: String] = [:]
    ) {
        elements.append(elementName)
    }

    func parser(_ parser: XMLParser, foundCharacters string: String) { texts.append(string) }
}
