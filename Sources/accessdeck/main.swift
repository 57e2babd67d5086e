// TEMPORARY demo for the `driver` branch: exercises CursesTerminal until the real app lands.
// The lead replaces this file; EndToEndTests rely only on the contract below, which the real
// app keeps: "Settings" and "Account access" on screen, "Terminal too small" below 40x12,
// q or Ctrl+C quits with status 0 after restoring the terminal.
import CursesDriver
import Foundation
import TerminalKit

#if canImport(Glibc)
    import Glibc
#endif

func environment() -> [String: String] {
    var result: [String: String] = [:]
    var pointer = environ
    while let entry = pointer.pointee {
        let text = String(cString: entry)
        if let equals = text.firstIndex(of: "=") {
            result[String(text[..<equals])] = String(text[text.index(after: equals)...])
        }
        pointer += 1
    }
    return result
}

func describe(_ event: InputEvent) -> String {
    switch event {
    case .key(let key): return "key \(key.label)"
    case .paste(let text): return "paste \(text)"
    case .resize(let size): return "resize \(size)"
    }
}

func render(size: Size, last: String, theme: Theme.Name, idle: String) -> CellGrid {
    var grid = CellGrid(size: size)
    guard size.fits(.minimum) else {
        let notice = "Terminal too small"
        grid.put(notice, at: Point(x: max(0, (size.cols - notice.count) / 2), y: size.rows / 2), style: .bold)
        return grid
    }
    let right = size.cols - 1
    let bottom = size.rows - 1
    for x in 1..<right {
        grid.put("─", at: Point(x: x, y: 0), style: .border)
        grid.put("─", at: Point(x: x, y: bottom), style: .border)
    }
    for y in 1..<bottom {
        grid.put("│", at: Point(x: 0, y: y), style: .border)
        grid.put("│", at: Point(x: right, y: y), style: .border)
    }
    grid.put("╭", at: Point(x: 0, y: 0), style: .border)
    grid.put("╮", at: Point(x: right, y: 0), style: .border)
    grid.put("╰", at: Point(x: 0, y: bottom), style: .border)
    grid.put("╯", at: Point(x: right, y: bottom), style: .border)
    grid.put("AccessDeck driver demo", at: Point(x: 2, y: 1), style: .bold)
    grid.put("› Settings", at: Point(x: 2, y: 3), style: Style(foreground: .accent, attributes: .bold))
    grid.put("  Account access", at: Point(x: 2, y: 4), style: .plain)
    grid.put("  Region 🇬🇪 Georgia · 日本 · €5", at: Point(x: 2, y: 5), style: .muted)
    grid.put("Selected", at: Point(x: 2, y: 6), style: Style(attributes: .reverse))
    grid.put("last: \(last)", at: Point(x: 2, y: 8), style: .plain)
    grid.put("size: \(size) theme: \(theme.rawValue)", at: Point(x: 2, y: 9), style: .muted)
    grid.put(idle, at: Point(x: 2, y: 10), style: .muted)
    grid.put("q quit", at: Point(x: 2, y: bottom - 1), style: .muted)
    return grid
}

let arguments = CommandLine.arguments.dropFirst()
let requestedTheme = arguments.firstIndex(of: "--theme").flatMap { index in
    arguments.index(after: index) < arguments.endIndex ? Theme.Name(rawValue: arguments[index + 1]) : nil
}
let options = CursesTerminal.resolveOptions(
    theme: requestedTheme, asciiFlag: arguments.contains("--ascii"), environment: environment())

do {
    let terminal = try CursesTerminal(options: options)
    var last = "none"
    // Demo-only knobs for trying the timeout and cross-thread wake by hand.
    let env = environment()
    let timeout = env["DEMO_TIMEOUT_MS"].flatMap(Int.init).map { Duration.milliseconds($0) }
    if let every = env["DEMO_WAKE_MS"].flatMap(Int.init) {
        let waker = terminal.waker
        Thread.detachNewThread {
            while true {
                usleep(useconds_t(every * 1000))
                waker.wake()
            }
        }
    }
    var nils = 0
    while true {
        let idle = timeout == nil && env["DEMO_WAKE_MS"] == nil ? "" : "nil events: \(nils)"
        terminal.paint(render(size: terminal.size, last: last, theme: options.theme.name, idle: idle))
        guard let event = terminal.nextEvent(timeout: timeout) else {
            nils += 1
            continue
        }
        if event == .key(.character("q")) || event == .key(.control("c")) {
            terminal.shutdown()
            exit(0)
        }
        last = describe(event)
    }
} catch {
    var message = Array("accessdeck: cannot start the terminal: \(error)\n".utf8)
    _ = write(STDERR_FILENO, &message, message.count)
    exit(1)
}
