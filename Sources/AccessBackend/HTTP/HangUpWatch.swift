import NIOCore
import Synchronization

/// Lets a request held by a `timeout` fault end when its client gives up. Hummingbird allows half-closed
/// connections, so a client that hangs up shows only as "input closed", never as a closed channel; closing
/// on that always would cut off clients that half-close after sending, so it is done only while a request
/// is held. `ConnectionHandler` tells it of the input closing; the gateway, from the request's task, asks it
/// to close on that.
final class HangUpWatch: Sendable {
    private struct State {
        var inputClosed = false
        var holding = false
    }
    private let state = Mutex(State())

    /// The client closed its side: true when the connection is to close now.
    func inputClosed() -> Bool {
        state.withLock { s in
            s.inputClosed = true
            return s.holding
        }
    }

    /// From now on the client hanging up closes the connection (at once if it already has).
    func closeOnHangUp(_ channel: any Channel) {
        let inputClosed = state.withLock { s in
            s.holding = true
            return s.inputClosed
        }
        if inputClosed { channel.close(promise: nil) }
    }
}
