import AccessApp
import CursesDriver
import Foundation
import TerminalKit

/// Key → frame inside the app, as the terminal loop does it: reduce, render, and the painter's
/// diff against the last frame. Printed against the 16.7 ms of a 60 Hz frame; asserts nothing.
enum KeyToFrame {
    static let frameBudget = 1000.0 / 60

    static func run() {
        let start = Date(timeIntervalSince1970: 1_800_000_000)
        // Typing into the country search, then erasing it, over and over: every key filters the 245 countries
        // again, for queries of 1 to 14 characters.
        var picker = Gallery.entry("country-picker:default")!.makeState(start)
        let typed = Array("united kingdom")
        let search = measure(count: 2100) { index in
            let step = index % (2 * typed.count)
            let key: Key = step < typed.count ? .character(typed[step]) : .backspace
            _ = reduce(&picker, .input(.key(key)))
            return render(picker, size: .standard)
        }
        report("keystroke in the country search (245 countries), 80x24", search, target: 1.0)
        // A full redraw of a big terminal: every cell differs from a blank screen.
        let hub = Gallery.entry("hub:default")!.makeState(start)
        let big = Size(cols: 200, rows: 60)
        let redraw = measure(count: 1000, fromBlank: true) { _ in render(hub, size: big) }
        report("full redraw of the hub at 200x60", redraw, target: 0.5)
    }

    /// Times `frame` plus the diff against the previous frame (or a blank one).
    static func measure(count: Int, fromBlank: Bool = false, _ frame: (Int) -> CellGrid) -> [Double] {
        var previous: CellGrid?
        var samples: [Double] = []
        samples.reserveCapacity(count)
        let clock = ContinuousClock()
        for index in 0..<count {
            let started = clock.now
            let grid = frame(index)
            _ = GridDiff.changedCells(from: fromBlank ? nil : previous, to: grid)
            let elapsed = clock.now - started
            samples.append(Double(elapsed.components.attoseconds) / 1e15 + Double(elapsed.components.seconds) * 1000)
            previous = grid
        }
        return samples.sorted()
    }

    static func report(_ what: String, _ samples: [Double], target: Double) {
        let p50 = samples[samples.count / 2]
        let p99 = samples[samples.count * 99 / 100]
        print("key to frame: \(what)")
        print(
            String(
                format: "  p50 %.3f ms  p99 %.3f ms (target p99 <= %.1f ms; %.1f%% of a 16.7 ms frame)", p50, p99,
                target, p99 / frameBudget * 100))
    }
}
