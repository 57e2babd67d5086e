import ChildProcess
import Foundation
import Testing

/// The built binary's command line without a terminal: usage errors exit 64 with one line on
/// stderr before anything starts (issue 10 items 11 and 16).
@Suite struct CommandLineTests {
    func run(_ arguments: [String], environment: [String: String] = [:]) throws -> AccessDeckBinary.Outcome {
        try AccessDeckBinary.run(arguments, environment: environment)
    }

    func lines(_ text: String) -> [Substring] { text.split(separator: "\n") }

    @Test(arguments: [["--scenario", "no-such-scenario"], ["serve", "--scenario", "no-such-scenario"]])
    func anUnknownScenarioExits64WithTheNames(arguments: [String]) throws {
        let outcome = try run(arguments)
        #expect(outcome.status == 64)
        #expect(lines(outcome.errors).count == 1)
        #expect(outcome.errors.contains("unknown scenario 'no-such-scenario'; scenarios: "))
        for name in ["default", "phone-only", "resend-exhausted", "taken-number"] {
            #expect(outcome.errors.contains(name), "\(name) missing from: \(outcome.errors)")
        }
        #expect(!outcome.output.contains("listening"))
    }

    @Test func aKnownScenarioPassesValidation() throws {
        // Gets past the arguments to the terminal check: exit 1, not 64.
        let outcome = try run(["--scenario", "phone-only"])
        #expect(outcome.status == 1)
        #expect(outcome.errors.contains("needs a terminal"))
    }

    @Test(arguments: [
        ("XX", "--region: no country has the code 'XX' (two letters, such as DE or GE)"),
        ("Germany", "--region takes a country's two-letter code, such as DE or GE, not 'Germany'"),
    ])
    func aBadRegionExits64InOneLine(value: String, message: String) throws {
        let outcome = try run(["--region", value])
        #expect(outcome.status == 64)
        #expect(outcome.errors == "accessdeck: \(message)\n")
    }

    @Test func aGoodRegionPassesValidation() throws {
        let outcome = try run(["--region", "de"])
        #expect(outcome.status == 1)
        #expect(outcome.errors.contains("needs a terminal"))
    }

    @Test func helpSaysHowToReachTheAdminAPI() throws {
        let outcome = try run(["--help"])
        #expect(outcome.status == 0)
        let help = outcome.output.replacingOccurrences(of: "\n", with: " ")
        #expect(help.contains("accessdeck --port 8080"))
        #expect(help.contains("http://127.0.0.1:8080/_admin/"))
        let run = try self.run(["run", "--help"])
        #expect(run.output.contains("--region"))
        #expect(run.output.replacingOccurrences(of: "\n", with: " ").contains("/_admin/"))
    }

    @Test func aStateNamedAndroidRendersAndroidUnlessTheFlagSaysOtherwise() throws {
        let android = try run(["render", "hub:android"])
        #expect(android.status == 0)
        #expect(android.output.contains("Google"))
        // No Apple row on Android: only the line saying Apple is linked too (issue 48 item 5).
        #expect(!android.output.contains("Apple  ") && android.output.contains("Apple is linked too"))
        let forced = try run(["render", "hub:android", "--platform", "ios"])
        #expect(forced.output.contains("Apple  ") && !forced.output.contains("Apple is linked too"))
        let ios = try run(["render", "hub:default"])
        #expect(ios.output.contains("Apple"))
    }

    /// Issue 29, item 8: `render hub` (the README's example) drew hub:loading, the first state listed; a
    /// screen named alone draws its default state, and a named state is still drawn as named.
    @Test func aScreenWithoutAStateRendersItsDefaultState() throws {
        let bare = try run(["render", "hub"])
        #expect(bare.status == 0)
        let named = try run(["render", "hub:default"])
        let loading = try run(["render", "hub:loading"])
        #expect(bare.output == named.output)
        #expect(bare.output != loading.output)
        // The picture's title names the state drawn.
        let svg = try run(["render", "hub", "--format", "svg"])
        #expect(svg.output == (try run(["render", "hub:default", "--format", "svg"])).output)
        #expect(svg.output.contains("AccessDeck hub:default"))
        // A screen whose default is not called "default" names it.
        #expect((try run(["render", "enter-code"])).output == (try run(["render", "enter-code:empty"])).output)
    }

    /// Issue 29, item 8: `render` offered `--no-mouse`, which means nothing for a printed screen.
    @Test func renderTakesNoMouseOption() throws {
        let outcome = try run(["render", "hub", "--no-mouse"])
        #expect(outcome.status == 64)
        #expect(outcome.errors.contains("--no-mouse"))
        #expect(lines(outcome.errors).count == 1, "\(outcome.errors)")
        #expect(!(try run(["render", "--help"])).output.contains("--no-mouse"))
        // The app still has it.
        #expect((try run(["run", "--help"])).output.contains("--no-mouse"))
        #expect((try run(["open-link", "--help"])).output.contains("--no-mouse"))
    }

    /// Issue 25, item 11: a second `serve` on the same `--db` stops at once with one line and status 1
    /// instead of serving beside the first with its own session cache.
    @Test func aSecondServeOnTheSameDatabaseExits1() throws {
        let binary = try AccessDeckBinary.requireBuilt()
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("serve-lock-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let database = directory.appendingPathComponent("state.sqlite").path
        let first = try Tmux(width: 100, height: 5, command: [binary, "serve", "--db", database])
        defer { first.kill() }
        try first.waitFor("listening on http://")

        let second = try AccessDeckBinary.run(["serve", "--db", database], within: .seconds(30))
        #expect(second.status == 1)
        #expect(lines(second.errors).count == 1, "\(second.errors)")
        #expect(second.errors.hasPrefix("accessdeck: another accessdeck server is using \(database)"))
        #expect(!second.output.contains("listening"))
    }
}

extension AccessDeckBinary {
    /// `run`, for a command that might not end: stopped (and reported as status -1) after `bound`.
    static func run(_ arguments: [String], within bound: Duration) throws -> Outcome {
        let outcome = try ChildProcess.run(try requireBuilt(), arguments, within: bound)
        return Outcome(
            status: outcome.status, output: String(decoding: outcome.output, as: UTF8.self),
            errors: String(decoding: outcome.errors, as: UTF8.self))
    }
}
