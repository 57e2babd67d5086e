import AccessAPI
import AccessApp
import AccessBackend
import AccessCore
import ArgumentParser
import Foundation
import TerminalKit

/// What `render` prints: an export of the grid, or a PNG of its SVG drawn by rsvg-convert.
enum RenderFormat: String, CaseIterable, ExpressibleByArgument {
    case text, ansi, svg, html, png

    var export: ExportFormat? { ExportFormat(rawValue: rawValue) }
}

/// `accessdeck render SCREEN[:STATE]`: draw one screen headless and print it as text, ANSI,
/// SVG, HTML or PNG.
struct Render: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Print one screen in one state as text, ANSI, SVG, HTML or PNG, then exit.")

    @Argument(help: "SCREEN or SCREEN:STATE, as listed by `accessdeck screens`.")
    var id: String

    @Option(help: "Terminal size as COLSxROWS.")
    var size: String = "80x24"

    @Option(
        help:
            "text, ansi (colours as SGR codes), svg, html or png (pictures in the theme's colours; png through rsvg-convert, to a file); --theme picks the colours (default dark, mono under NO_COLOR)."
    )
    var format: RenderFormat = .text

    @Flag(help: "With svg, html or png: draw the screen in a window, its title bar showing the screen's id.")
    var frame = false

    @Option(help: "With png: pixels per picture pixel (0.5 to 4; 2 for slides).")
    var scale: Double?

    @OptionGroup var appearance: AppearanceOptions

    func validate() throws {
        guard Gallery.entry(id) != nil else {
            throw ValidationError("no screen named '\(id)'; `accessdeck screens` lists them")
        }
        guard Size(parsing: size) != nil else {
            throw ValidationError("--size takes COLSxROWS, such as 80x24, not '\(size)'")
        }
        if frame, ![.svg, .html, .png].contains(format) {
            throw ValidationError("--frame is for --format svg, html or png")
        }
        if let scale {
            guard format == .png else { throw ValidationError("--scale is for --format png") }
            guard (0.5...4).contains(scale) else { throw ValidationError("--scale must be 0.5 to 4") }
        }
        if format == .png, isatty(STDOUT_FILENO) == 1 {
            throw ValidationError("--format png writes a PNG: send it to a file (> screen.png)")
        }
    }

    func run() throws {
        let entry = Gallery.entry(id)!
        var state = entry.makeState(Gallery.sampleTime)
        // A state named android renders android unless --platform says otherwise.
        if let platform = appearance.platform { state.options.platform = platform }
        state.options.ascii = appearance.ascii
        var grid = AccessApp.render(state, size: Size(parsing: size)!)
        if appearance.ascii { grid = grid.asciiFallback() }
        let noColor = !(ProcessInfo.processInfo.environment["NO_COLOR"] ?? "").isEmpty
        let theme = Theme.named(appearance.theme ?? (noColor ? .mono : .dark))
        let title = "AccessDeck \(entry.id)"
        guard let export = format.export else {
            let folder = FileManager.default.temporaryDirectory.appendingPathComponent("render-\(UUID().uuidString)")
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            defer { try? FileManager.default.removeItem(at: folder) }
            let png = folder.appendingPathComponent("screen.png")
            let emoji = EmojiPictures.pictures(of: GridExport.emojiGraphemes(in: grid))
            try Raster.png(
                svg: GridExport.svg(grid, theme: theme, title: title, frame: frame, emoji: emoji), scale: scale ?? 1,
                to: png)
            FileHandle.standardOutput.write(try Data(contentsOf: png))
            return
        }
        print(GridExport.export(grid, as: export, theme: theme, title: title, frame: frame), terminator: "")
    }
}
