import ChildProcess
import Foundation
import Testing

/// Children started by posix_spawn: their streams, their status, a bound on their time, and a launched
/// helper reaped once it exits (a helper nobody waits for stays a zombie for as long as the app runs).
@Suite struct ChildProcessTests {
    @Test func bothStreamsAndTheStatusComeBack() throws {
        let outcome = try ChildProcess.run("/bin/sh", ["-c", "echo out; echo err >&2; exit 3"])
        #expect(outcome.status == 3)
        #expect(String(decoding: outcome.output, as: UTF8.self) == "out\n")
        #expect(String(decoding: outcome.errors, as: UTF8.self) == "err\n")
    }

    @Test func theEnvironmentGivenIsTheChildsWhole() throws {
        let outcome = try ChildProcess.run("/bin/sh", ["-c", "echo \"$ONLY-$HOME\""], environment: ["ONLY": "this"])
        #expect(String(decoding: outcome.output, as: UTF8.self) == "this-\n")
    }

    @Test func aSignalEndsItWith128PlusTheSignal() throws {
        #expect(try ChildProcess.run("/bin/sh", ["-c", "kill -TERM $$"]).status == 143)
    }

    /// A child ends on real time: bounded, never measured.
    @Test func aChildPastItsBoundIsStoppedAndReportedAsMinusOne() throws {
        #expect(try ChildProcess.run("/bin/sleep", ["30"], within: .milliseconds(200)).status == -1)
    }

    @Test func aChildThatCannotStartThrows() {
        #expect(throws: ChildProcess.Failure.self) { try ChildProcess.run("/nonexistent/tool", []) }
    }

    @Test func aLaunchedHelperIsReapedOnceItExits() throws {
        let pid = try #require(ChildProcess.launch("/bin/true", []))
        // Reaped: no zombie left, so the pid no longer names a process (at most 10 s of real time).
        let deadline = ContinuousClock.now + .seconds(10)
        while kill(pid, 0) == 0, ContinuousClock.now < deadline { Thread.sleep(forTimeInterval: 0.02) }
        #expect(kill(pid, 0) == -1 && errno == ESRCH)
    }

    /// The opener's verdict (issue 28 items 9 and 13): its exit status comes back once it ends.
    @Test func theExitStatusIsReported() async throws {
        let status = await withCheckedContinuation { continuation in
            let started = ChildProcess.launch("/bin/false", []) { continuation.resume(returning: $0) }
            if started == nil { continuation.resume(returning: -1) }
        }
        #expect(status == 1)
    }

    @Test func aHelperThatCannotStartIsNil() {
        #expect(ChildProcess.launch("/nonexistent/opener", []) == nil)
    }
}
