import Foundation
import Testing

@testable import CursesDriver

@Suite struct WakePipeTests {
    func isReadable(_ fd: Int32, within milliseconds: Int32) -> Bool {
        var descriptor = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
        return poll(&descriptor, 1, milliseconds) == 1
    }

    @Test func wakeFromAnotherThreadMakesThePipeReadable() throws {
        let pipe = try WakePipe()
        let waker = TerminalWaker(fd: pipe.writeFD)
        #expect(!isReadable(pipe.readFD, within: 0))
        let thread = Thread { waker.wake() }
        thread.start()
        #expect(isReadable(pipe.readFD, within: 5_000))
        #expect(pipe.drain() == [WakeByte.user])
        #expect(!isReadable(pipe.readFD, within: 0))
    }

    @Test func manyWakesNeverBlockTheCaller() throws {
        let pipe = try WakePipe()
        let waker = TerminalWaker(fd: pipe.writeFD)
        // Far more than a pipe holds: the non-blocking write drops the excess instead of hanging.
        for _ in 0..<200_000 { waker.wake() }
        #expect(pipe.drain() == [WakeByte.user])
    }

    @Test func drainingAnEmptyPipeReportsNothing() throws {
        #expect(try WakePipe().drain().isEmpty)
    }
}
