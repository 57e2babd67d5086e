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
        #expect(!android.output.contains("Apple"))
        let forced = try run(["render", "hub:android", "--platform", "ios"])
        #expect(forced.output.contains("Apple"))
        let ios = try run(["render", "hub:default"])
        #expect(ios.output.contains("Apple"))
    }
}
