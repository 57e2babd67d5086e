import Foundation
import Testing

/// The binary in tmux while it is busy: a terminating signal is honoured in the middle of a key
/// storm, and the last size of a resize storm is drawn whole without waiting for a key. How fast
/// the signal is honoured is measured by scripts/bench/terminal.py; these only ask that it is.
@Suite(.serialized, .enabled(if: Tmux.isAvailable, "tmux is not installed: end-to-end tests need a real terminal"))
struct UnderLoadEndToEndTests {
    func start(width: Int = 100, height: Int = 30) throws -> Tmux {
        let binary = try AccessDeckBinary.requireBuilt()
        let tmux = try Tmux(width: width, height: height, command: [binary])
        try tmux.waitFor("Settings")
        return tmux
    }

    /// Keyboard check echoes every key, so each key of the storm costs the app a frame.
    func startOnKeyboardCheck() throws -> Tmux {
        let tmux = try start()
        try tmux.sendKeys("Down")
        try tmux.sendKeys("Down")
        try tmux.sendKeys("Enter")
        try tmux.waitFor("last: nothing yet")
        return tmux
    }

    /// 60,000 keys queue up in tmux and the pty faster than the app draws them. Before the signal was
    /// checked ahead of queued input, the app drew every one of them first and exited only after the
    /// storm (tens of seconds in a debug build); the deadline below is generous for a prompt exit.
    @Test(arguments: [(SIGTERM, 143), (SIGHUP, 129)])
    func aSignalInTheMiddleOfAKeyStormEndsTheApp(signal: Int32, status: Int) throws {
        let tmux = try startOnKeyboardCheck()
        let pid = try #require(try tmux.appPID())
        // Letters only: Keyboard check shows each one (q included) and none of them leaves the screen.
        let storm = String(repeating: "abcdefghijklmnopqrstuvwxyz", count: 4_000 / 26)
        for _ in 0..<15 { try tmux.sendLiteral(storm) }
        // The app is drawing the storm: the newest key on screen is no longer "nothing yet".
        try tmux.waitFor("last: key ")
        #expect(kill(pid, signal) == 0)
        #expect(try tmux.waitForExit(timeout: .seconds(8)) == status)
        #expect(try tmux.format("#{alternate_on}") == "0")
        #expect(!Tmux.isProcessAlive(pid))
    }

    /// A paste far over every field's limit, then resizes and keys: SIGTERM still ends the app.
    @Test func sigtermAfterAHugePasteAndResizesEndsTheApp() throws {
        let tmux = try startOnKeyboardCheck()
        let pid = try #require(try tmux.appPID())
        // tmux takes a command of 16 KB at most: the paste goes in pieces between its markers.
        try tmux.sendLiteral("\u{1B}[200~")
        for _ in 0..<10 { try tmux.sendLiteral(String(repeating: "5", count: 5_000)) }
        try tmux.sendLiteral("\u{1B}[201~")
        for step in 0..<10 {
            try tmux.resize(width: step.isMultiple(of: 2) ? 200 : 40, height: step.isMultiple(of: 2) ? 60 : 12)
            try tmux.sendLiteral(String(repeating: "xyz", count: 1_000))
        }
        #expect(kill(pid, SIGTERM) == 0)
        #expect(try tmux.waitForExit(timeout: .seconds(8)) == 143)
        #expect(!Tmux.isProcessAlive(pid))
    }

    /// 50 resizes between 20x6 and 200x60 as fast as tmux takes them, then nothing: the final size must
    /// be drawn whole (title on the first row, key hints on the last) with no key to prompt a redraw.
    @Test(arguments: [(200, 60), (100, 30), (41, 12), (20, 6)])
    func theLastSizeOfAResizeStormIsDrawnWhole(width: Int, height: Int) throws {
        let tmux = try start()
        var random = SplitMix(seed: UInt64(width * 1000 + height))
        for index in 0..<49 {
            // Alternating the extremes, with sizes in between, so every step changes both dimensions.
            let size =
                switch index % 3 {
                case 0: (20, 6)
                case 1: (200, 60)
                default: (Int(random.next() % 181) + 20, Int(random.next() % 55) + 6)
                }
            try tmux.resize(width: size.0, height: size.1)
        }
        try tmux.resize(width: width, height: height)
        let tooSmall = width < 40 || height < 12
        let screen = try tmux.waitUntil("a whole \(width)x\(height) frame", timeout: .seconds(10)) { screen in
            let rows = screen.split(separator: "\n", omittingEmptySubsequences: false)
            guard rows.count >= height else { return false }
            if tooSmall { return screen.contains("Terminal too small") && !screen.contains("Settings") }
            return rows[0].contains("Settings") && rows[height - 1].contains("Move")
                && !screen.contains("Terminal too small")
        }
        #expect(!screen.isEmpty)
        #expect(try tmux.format("#{pane_width}x#{pane_height}") == "\(width)x\(height)")
    }
}

/// SplitMix64, so a failing storm can be replayed.
struct SplitMix {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
