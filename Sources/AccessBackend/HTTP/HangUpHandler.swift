import NIOCore
import Synchronization

/// Lets a request held by a `timeout` fault end when its client gives up. Hummingbird allows half-closed
/// connections, so a client that hangs up shows only as "input closed", never as a closed channel; closing
/// on that always would cut off clients that half-close after sending, so it is done only while a request
/// is held.
final class HangUpHandler: ChannelInboundHandler, RemovableChannelHandler, Sendable {
    typealias InboundIn = NIOAny

    private struct State {
        var inputClosed = false
        var holding = false
    }
    private let state = Mutex(State())

    func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
        if let event = event as? ChannelEvent, event == .inputClosed {
            let holding = state.withLock { s in
                s.inputClosed = true
                return s.holding
            }
            if holding { context.close(promise: nil) }
        }
        context.fireUserInboundEventTriggered(event)
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
