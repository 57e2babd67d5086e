import AccessApp
import Foundation
import Testing

/// A helper the app starts and does not wait for is reaped once it exits, so Foundation lets it go: a
/// `Process` nobody waited for stayed in memory for good, one more for every URL the app opened.
@Suite struct DetachedProcessTests {
    @Test func aLaunchedHelperIsReleasedOnceItExits() throws {
        weak var launched: Process?
        do {
            let process = try #require(DetachedProcess.launch("/bin/true", []))
            launched = process
        }
        // A child process ends on real time: waited for, never measured, at most 10 s.
        let deadline = ContinuousClock.now + .seconds(10)
        while launched != nil, ContinuousClock.now < deadline { Thread.sleep(forTimeInterval: 0.02) }
        #expect(launched == nil)
    }

    /// The opener's verdict (issue 28 items 9 and 13): its exit status comes back once it ends.
    @Test func theExitStatusIsReported() async throws {
        let status = await withCheckedContinuation { continuation in
            let started = DetachedProcess.launch("/bin/false", []) { continuation.resume(returning: $0) }
            if started == nil { continuation.resume(returning: -1) }
        }
        #expect(status == 1)
    }

    @Test func aHelperThatCannotStartIsNil() {
        #expect(DetachedProcess.launch("/nonexistent/opener", []) == nil)
    }
}
