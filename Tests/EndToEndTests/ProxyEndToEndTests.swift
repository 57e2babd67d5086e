import ChildProcess
import Foundation
import Testing

/// Issue 52 item 4: `accessdeck proxy` says what it found when it is stopped: one summary line, and with
/// `--junit` a JUnit file with a testcase per watched rule and per contract check.
@Suite(.serialized) struct ProxyEndToEndTests {
    /// SIGTERM to the proxy alone (Ctrl+C in the pane would stop the shell around it too, and with it the exit
    /// status this reads); both signals take the same way out.
    @Test func sigtermPrintsTheSummaryAndWritesTheJUnitFile() throws {
        let binary = try AccessDeckBinary.requireBuilt()
        let junit = FileManager.default.temporaryDirectory.appendingPathComponent("proxy-\(UUID().uuidString).xml")
        defer { try? FileManager.default.removeItem(at: junit) }
        // Nothing listens upstream: the proxy reaches for it only when a request comes, and none does.
        let proxy = try Tmux(
            width: 120, height: 8,
            command: [binary, "proxy", "--upstream", "http://127.0.0.1:9", "--junit", junit.path])
        defer { proxy.kill() }
        try proxy.waitFor("listening on http://")
        let pid = try #require(try proxy.appPID())
        #expect(Foundation.kill(pid, SIGTERM) == 0)
        #expect(try proxy.waitForExit(timeout: .seconds(30)) == 0)
        let screen = try proxy.capture()
        #expect(screen.contains("0 exchanges · 0 contract breaks · rules: 0 kept, 0 broken, 11 not seen"), "\(screen)")
        let xml = try String(contentsOf: junit, encoding: .utf8)
        #expect(xml.components(separatedBy: "<testcase ").count - 1 == 11 + 6)
        #expect(xml.contains(#"<testcase classname="rate_limit" name="rate_limit.cooldown"><skipped"#))
        #expect(xml.contains(#"<testcase classname="contract" name="unlisted_status"></testcase>"#))
        #expect(xml.contains(#"failures="0""#))
    }

    /// Issue 52 item 5: a replay prints the findings of a recording, and says plainly when there is none.
    @Test func aReplayOfNoRecordingExits1WithOneLine() throws {
        let missing = FileManager.default.temporaryDirectory.appendingPathComponent("none-\(UUID().uuidString)")
        let outcome = try AccessDeckBinary.run(["proxy", "--replay", missing.path])
        #expect(outcome.status == 1)
        #expect(outcome.errors.split(separator: "\n").count == 1, "\(outcome.errors)")
        #expect(outcome.errors.contains("no recording at \(missing.path)"))
    }

    @Test func aReplayTakesNoUpstream() throws {
        let outcome = try AccessDeckBinary.run(["proxy", "--replay", "/tmp", "--upstream", "http://127.0.0.1:9"])
        #expect(outcome.status == 64)
        #expect(outcome.errors.contains("--replay checks a recording offline"))
    }
}
