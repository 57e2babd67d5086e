import AccessAPI
import AccessApp
import AccessBackend
import AccessCore
import ArgumentParser
import Foundation
import TerminalKit

/// `accessdeck render SCREEN[:STATE]`: draw one screen headless and print it as text, ANSI,
/// SVG or HTML.
struct Render: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Print one screen in one state as text, ANSI, SVG or HTML, then exit.")

    @Argument(help: "SCREEN or SCREEN:STATE, as listed by `accessdeck screens`.")
    var id: String

    @Option(help: "Terminal size as COLSxROWS.")
    var size: String = "80x24"

    @Option(
        help:
            "text, ansi (colours as SGR codes), svg or html (pictures in the theme's colours); --theme picks the colours (default dark, mono under NO_COLOR)."
    )
    var format: ExportFormat = .text

    @Flag(help: "With svg or html: draw the screen in a window, its title bar showing the screen's id.")
    var frame = false

    @OptionGroup var appearance: AppearanceOptions

    func validate() throws {
        guard Gallery.entry(id) != nil else {
            throw ValidationError("no screen named '\(id)'; `accessdeck screens` lists them")
        }
        guard Size(parsing: size) != nil else {
            throw ValidationError("--size takes COLSxROWS, such as 80x24, not '\(size)'")
        }
        if frame, ![.svg, .html].contains(format) { throw ValidationError("--frame is for --format svg or html") }
    }

    func run() {
        let entry = Gallery.entry(id)!
        var state = entry.makeState(Date(timeIntervalSince1970: 1_800_000_000))
        // A state named android renders android unless --platform says otherwise.
        if let platform = appearance.platform { state.options.platform = platform }
        state.options.ascii = appearance.ascii
        var grid = AccessApp.render(state, size: Size(parsing: size)!)
        if appearance.ascii { grid = grid.asciiFallback() }
        let noColor = !(ProcessInfo.processInfo.environment["NO_COLOR"] ?? "").isEmpty
        let theme = Theme.named(appearance.theme ?? (noColor ? .mono : .dark))
        print(
            GridExport.export(grid, as: format, theme: theme, title: "AccessDeck \(entry.id)", frame: frame),
            terminator: "")
    }
}
