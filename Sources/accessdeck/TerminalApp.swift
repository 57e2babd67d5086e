import AccessApp
import CursesDriver
import Foundation
import TerminalKit

/// The interactive app: the store, the terminal, and the loop between them.
struct TerminalApp {
    let appearance: AppearanceOptions

    /// Runs until the user quits; returns the exit status.
    func run() throws -> Int32 {
        let options = CursesTerminal.resolveOptions(
            theme: appearance.theme, asciiFlag: appearance.ascii, environment: ProcessInfo.processInfo.environment)
        let terminal = try CursesTerminal(options: options)
        defer { terminal.shutdown() }
        let clock = SystemClock()
        let store = Store(
            state: AppState(now: clock.now(), options: AppOptions(platform: appearance.platform)),
            clock: clock,
            services: TerminalServices()
        ) { [terminal] in terminal.wake() }
        defer { store.stop() }
        // Blocks in the kernel between events: timers and replies wake it through `wake()`.
        while !store.isQuitting {
            terminal.paint(render(store.state, size: terminal.size))
            if let event = terminal.nextEvent(timeout: nil) { store.send(.input(event)) }
        }
        return 0
    }
}

/// Clipboard through the terminal (OSC 52, so it works over SSH and in tmux) and URLs through
/// the desktop's opener.
struct TerminalServices: SystemServices {
    func copyToClipboard(_ text: String) {
        let sequence = "\u{1B}]52;c;\(Data(text.utf8).base64EncodedString())\u{07}"
        FileHandle.standardOutput.write(Data(sequence.utf8))
    }

    func open(_ url: URL) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["xdg-open", url.absoluteString]
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try? process.run()
    }
}
