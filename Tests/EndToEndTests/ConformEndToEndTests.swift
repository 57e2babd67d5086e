import ChildProcess
import Foundation
import Testing

/// Issue 32: the real binary's `accessdeck conform` against `accessdeck serve`, with `--junit`.
@Suite struct ConformEndToEndTests {
    @Test func conformAgainstTheServedReferenceBackendKeepsEveryCheckedRuleAndWritesJUnit() throws {
        // A small --max-worlds: admin.world_limit opens worlds up to it (deleted afterwards) and is kept.
        let served = try ServedBackend(scenario: "default", serving: ["--max-worlds", "4"])
        let junit = FileManager.default.temporaryDirectory.appendingPathComponent("conform-\(UUID().uuidString).xml")
        defer { try? FileManager.default.removeItem(at: junit) }
        let outcome = try AccessDeckBinary.run([
            "conform", "--backend", "http://127.0.0.1:\(served.admin.port)", "--junit", junit.path,
        ])
        #expect(outcome.status == 0, "\(outcome.output)\(outcome.errors)")
        // A world of its own, deleted afterwards: the default world someone may be using is left as it was.
        #expect(outcome.errors.contains("(the reference backend, in a world of its own: conform-"))
        #expect(outcome.errors.contains("codes and links from the reference backend's outbox"))
        let summary = try #require(outcome.output.split(separator: "\n").last)
        // One verdict per rule and road. The 45 skipped: http.internal, http.method, rate_limit.global_hourly on
        // its 13 roads, admin.no_scenario on its 2, admin.scenario_invalid and admin.outbox_invalid, which no run
        // provokes honestly, and admin.unauthorized on its 26, which needs --admin-token. Every rule has a check,
        // and the line ends with the run's wall time.
        #expect(summary.contains(" kept, 0 broken, 45 skipped, 0 cannot tell; "), "\(summary)")
        #expect(summary.contains("; 0 not checked (no check written) in "), "\(summary)")
        #expect(summary.hasSuffix(" s"), "\(summary)")
        #expect(outcome.output.contains("kept         otp.expired /auth/phone/verify-otp "))
        #expect(outcome.output.contains("kept         rate_limit.cooldown /auth/phone/resend-otp "))
        #expect(outcome.output.contains("kept         admin.world_limit POST /_admin/worlds "))
        #expect(outcome.output.contains("kept         fault.timeout "))
        #expect(!outcome.output.contains("BROKEN"))
        let xml = try String(contentsOf: junit, encoding: .utf8)
        #expect(xml.hasPrefix("<?xml"))
        #expect(xml.contains("failures=\"0\""))
        #expect(
            xml.contains(
                "<testcase classname=\"signin\" name=\"signin.code_incorrect_exhausted /auth/sign-in/code/verify\">"
                    + "</testcase>"))
    }

    /// A fault makes a path nobody serves answer 200: `http.not_found` is broken, the exit status 1, and the
    /// JUnit file has it as a failure. The fault is on in world `broken`, and a URL that names a world is run in
    /// as given (no world of its own nested in it).
    @Test func aBrokenRuleExits1AndIsAFailureInJUnit() throws {
        let served = try ServedBackend(scenario: "default")
        try served.admin.inWorld("broken").post(
            "/faults", #"{"endpoints":[{"path":"/conform-no-such-endpoint","kind":"body","body":"{}"}]}"#)
        let junit = FileManager.default.temporaryDirectory.appendingPathComponent("conform-\(UUID().uuidString).xml")
        defer { try? FileManager.default.removeItem(at: junit) }
        let outcome = try AccessDeckBinary.run([
            "conform", "--backend", "http://127.0.0.1:\(served.admin.port)/w/broken", "--only", "http", "--junit",
            junit.path,
        ])
        #expect(outcome.status == 1, "\(outcome.output)\(outcome.errors)")
        #expect(outcome.output.contains("BROKEN       http.not_found"))
        #expect(outcome.output.contains("    expected: GET of a path nobody serves: 404"))
        let xml = try String(contentsOf: junit, encoding: .utf8)
        #expect(xml.contains("failures=\"1\""))
        #expect(xml.contains("<testcase classname=\"http\" name=\"http.not_found\"><failure message="))
    }

    @Test func aRuleThatIsNoRuleIsBadUsage() throws {
        let outcome = try AccessDeckBinary.run([
            "conform", "--backend", "http://127.0.0.1:9", "--only", "signin,no.such_rule",
        ])
        #expect(outcome.status == 64)
        #expect(outcome.errors == "accessdeck: no rule or family named 'no.such_rule' (see docs/RULES.md)\n")
        let noURL = try AccessDeckBinary.run(["conform", "--backend", "localhost"])
        #expect(noURL.status == 64)
    }

    /// `--fixture-accounts FILE` is read before the run: a file that does not read, or names a member no role
    /// takes, is a usage error naming the member, never the value (a token in it stays out of the output).
    @Test func aFixtureFileThatDoesNotReadIsBadUsage() throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("fixtures-\(UUID().uuidString).json")
        defer { try? FileManager.default.removeItem(at: file) }
        try Data(#"{"only_provider": {"provider": "apple", "access_token": "at_secret", "pin": "1234"}}"#.utf8)
            .write(to: file)
        let outcome = try AccessDeckBinary.run([
            "conform", "--backend", "http://127.0.0.1:9", "--fixture-accounts", file.path,
        ])
        #expect(outcome.status == 64)
        #expect(outcome.errors.contains("only_provider: no member 'pin'"), "\(outcome.errors)")
        #expect(!outcome.errors.contains("at_secret") && !outcome.errors.contains("1234"))
        let missing = try AccessDeckBinary.run([
            "conform", "--backend", "http://127.0.0.1:9", "--fixture-accounts", file.path + ".none",
        ])
        #expect(missing.status == 64)
        #expect(missing.errors.contains("--fixture-accounts: cannot read"), "\(missing.errors)")
    }
}
