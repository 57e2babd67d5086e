import AccessApp
import ArgumentParser
import Foundation
import TerminalKit

/// `accessdeck play TAPE [--dump]`: replay a key tape headless on its own clock.
struct Play: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Replay a key tape headless and print the screen (fixtures/tapes/README.md).")

    @Argument(help: "A .tape file.")
    var tape: String

    @Flag(help: "Print the screen after every step, not only at `screen` steps and the end.")
    var dump = false

    @OptionGroup var appearance: AppearanceOptions

    func run() throws {
        let text: String
        do {
            text = try String(contentsOfFile: tape, encoding: .utf8)
        } catch {
            throw ValidationError("cannot read tape '\(tape)'")
        }
        let parsed: Tape
        do {
            parsed = try Tape(parsing: text)
        } catch let error as Tape.ParseError {
            throw ValidationError("\(tape): \(error)")
        }
        let start = AppState(
            now: Date(timeIntervalSince1970: 1_800_000_000), options: AppOptions(platform: appearance.platform ?? .ios))
        let runtime = play(parsed, from: start, everyStep: dump) { caption, grid in
            printScreen(caption, grid)
        }
        printScreen(runtime.quit ? "end (quit)" : "end", runtime.screen)
    }

    private func printScreen(_ caption: String, _ grid: CellGrid) {
        print("── \(caption) " + String(repeating: "─", count: max(0, grid.size.cols - 4 - caption.count)))
        print((appearance.ascii ? grid.asciiFallback() : grid).text())
    }
}
