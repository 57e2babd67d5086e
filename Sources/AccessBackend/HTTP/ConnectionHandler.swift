import NIOCore
import NIOHTTPTypes

/// The one handler this server adds to every connection, between the HTTP codec and Hummingbird. It runs three
/// separate jobs: `MalformedRequestRepair` (the contract's JSON for what the parser refuses, and CONNECT's
/// answer), `HangUpWatch` (a held request ends when its client hangs up) and `ConnectionGuard` (deadlines and the
/// connection cap). One handler rather than three: each handler in a pipeline is a pass for every part read and
/// written, and the two extra ones cost some 10 K instructions of every request (issue 34 item 2).
final class ConnectionHandler: ChannelDuplexHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPRequestPart
    typealias InboundOut = HTTPRequestPart
    typealias OutboundIn = HTTPResponsePart
    typealias OutboundOut = HTTPResponsePart

    let hangUp = HangUpWatch()
    private let repair = MalformedRequestRepair()
    private let connectionGuard: ConnectionGuard

    init(limits: ReferenceBackend.ConnectionLimits, registry: ConnectionRegistry) {
        connectionGuard = ConnectionGuard(limits: limits, registry: registry)
    }

    func handlerAdded(context: ChannelHandlerContext) {
        if context.channel.isActive { connectionGuard.admit(context) }
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        connectionGuard.leave()
    }

    func channelActive(context: ChannelHandlerContext) {
        connectionGuard.admit(context)
        context.fireChannelActive()
    }

    func channelInactive(context: ChannelHandlerContext) {
        connectionGuard.leave()
        context.fireChannelInactive()
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        let part = unwrapInboundIn(data)
        repair.read(part)
        // A refused connection is closing: nothing it sent may reach the router.
        guard !connectionGuard.refused else { return }
        connectionGuard.read(part, context, handler: self)
        context.fireChannelRead(data)
    }

    func channelReadComplete(context: ChannelHandlerContext) {
        connectionGuard.readComplete(context, handler: self)
        context.fireChannelReadComplete()
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        repair.errorCaught(error)
        context.fireErrorCaught(error)
    }

    func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
        if let event = event as? ChannelEvent, event == .inputClosed, hangUp.inputClosed() {
            context.close(promise: nil)
        }
        context.fireUserInboundEventTriggered(event)
    }

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        let part = unwrapOutboundIn(data)
        connectionGuard.write(part)
        repair.write(part, data: data, context: context, promise: promise)
    }

    /// `ConnectionGuard`'s deadline timer, on the event loop.
    func deadlineTimerFired(_ context: ChannelHandlerContext) {
        connectionGuard.timerFired(context, handler: self)
    }
}
