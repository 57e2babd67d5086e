import Foundation
import Testing

@testable import CursesDriver

/// The flag and the byte a SIGWINCH leaves: `CursesTerminal.nextEvent` reads a resize ahead of a queued key
/// storm by the flag, and wakes from poll(2) by the byte. The handlers are the process's own, so the
/// suite runs one test at a time and gives back what it found.
@Suite(.serialized) struct SignalGuardTests {
    @Test func aWindowChangeIsReportedOnceAndWakesThePipe() throws {
        let pipe = try WakePipe()
        SignalGuard.install(wakeFD: pipe.writeFD)
        defer { SignalGuard.restore() }
        _ = SignalGuard.takeWindowChange()
        #expect(!SignalGuard.takeWindowChange())
        raise(SIGWINCH)
        #expect(SignalGuard.takeWindowChange())
        #expect(!SignalGuard.takeWindowChange())
        #expect(pipe.drain() == [WakeByte.resize])
    }

    @Test func twoWindowChangesBeforeALookAreOne() throws {
        let pipe = try WakePipe()
        SignalGuard.install(wakeFD: pipe.writeFD)
        defer { SignalGuard.restore() }
        _ = SignalGuard.takeWindowChange()
        raise(SIGWINCH)
        raise(SIGWINCH)
        #expect(SignalGuard.takeWindowChange())
        #expect(!SignalGuard.takeWindowChange())
        #expect(SignalGuard.pending == nil)
    }
}
