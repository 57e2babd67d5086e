import Foundation
import HTTPTypes
import NIOCore
import NIOHTTP1
import NIOHTTPTypes
import NIOHTTPTypesHTTP1

/// The one handler this server adds to every connection, between NIO's HTTP/1 codec and Hummingbird
/// (`ServerChannel`). It turns NIO's HTTP/1 parts into the HTTP types Hummingbird reads and back, the job of
/// swift-nio-extras' `HTTP1ToHTTPServerCodec`, whose place it takes: that codec drops an absolute-form target's
/// authority (issue 45 item 5), which here becomes the request's authority, as RFC 9112 §3.2.2 says. And it runs
/// three separate jobs: `MalformedRequestRepair` (the contract's JSON for what the parser refuses, and CONNECT's
/// answer), `HangUpWatch` (a held request ends when its client hangs up) and `ConnectionGuard` (deadlines, the
/// connection cap, and reading no further than the client takes answers). One handler rather than four: each
/// handler in a pipeline is a pass for every part read and written, and two extra ones cost some 10 K
/// instructions of every request (issue 34 item 2).
final class ConnectionHandler: ChannelDuplexHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPServerRequestPart
    typealias InboundOut = HTTPRequestPart
    typealias OutboundIn = HTTPResponsePart
    typealias OutboundOut = HTTPServerResponsePart

    /// The Date a responder means its answer to carry, where Hummingbird would write the wall clock's: the
    /// reference backend's own clock, which QA moves (`BackendClock`), and the upstream's Date through
    /// `accessdeck proxy`. Never sent: this handler puts it in the Date header.
    static let ownDate = HTTPField.Name("X-AccessDeck-Own-Date")!

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
        let part: HTTPRequestPart
        switch unwrapInboundIn(data) {
        case .head(let head):
            do {
                part = .head(try Self.request(head))
            } catch {
                context.fireErrorCaught(error)
                return
            }
        case .body(let body):
            part = .body(body)
        case .end(let trailers):
            part = .end(trailers.map { HTTPFields($0, splitCookie: false) })
        }
        repair.read(part)
        // A refused connection is closing: nothing it sent may reach the router.
        guard !connectionGuard.refused, connectionGuard.read(part, context, handler: self) else { return }
        context.fireChannelRead(wrapInboundOut(part))
    }

    func channelReadComplete(context: ChannelHandlerContext) {
        connectionGuard.readComplete(context, handler: self)
        context.fireChannelReadComplete()
    }

    func channelWritabilityChanged(context: ChannelHandlerContext) {
        connectionGuard.writabilityChanged(context, handler: self)
        context.fireChannelWritabilityChanged()
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

    func read(context: ChannelHandlerContext) {
        connectionGuard.passRead(context)
    }

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        var part = unwrapOutboundIn(data)
        if case .head(var head) = part {
            // Hummingbird writes its own wall-clock Date on every answer; a responder's own (`ownDate`) wins.
            if let own = head.headerFields[Self.ownDate] {
                head.headerFields[Self.ownDate] = nil
                head.headerFields[.date] = own
            }
            if connectionGuard.isLastAnswer { head.headerFields[.connection] = "close" }
            part = .head(head)
        }
        switch connectionGuard.write(part) {
        case .nothing:
            repair.write(part, context: context, promise: promise)
            return
        case .passNext:
            repair.write(part, context: context, promise: promise)
            connectionGuard.passNext(context)
            return
        case .close:
            break
        }
        // The connection's last answer: closed once it is out (closing drops what is not yet written), its input
        // after `ConnectionGuard.lingerAfterLastAnswer`.
        let written = context.eventLoop.makePromise(of: Void.self)
        let channel = context.channel
        written.futureResult.whenComplete { result in
            promise?.completeWith(result)
            guard case .success = result else {
                channel.close(promise: nil)
                return
            }
            channel.close(mode: .output, promise: nil)
            channel.eventLoop.scheduleTask(in: TimeAmount(ConnectionGuard.lingerAfterLastAnswer)) {
                channel.close(promise: nil)
            }
        }
        repair.write(part, context: context, promise: written)
        context.flush()
    }

    /// `ConnectionGuard`'s deadline timer, on the event loop.
    func deadlineTimerFired(_ context: ChannelHandlerContext) {
        connectionGuard.timerFired(context, handler: self)
    }

    /// Closes `channel` once the answer being written is out, reading nothing more of it: for a refusal made
    /// before a body the client is still sending (issue 45 item 8: a 200 MiB body was read to its end first).
    static func closeAfterAnswer(on channel: any Channel) async {
        try? await channel.eventLoop.submit {
            try channel.pipeline.syncOperations.handler(type: ConnectionHandler.self).connectionGuard
                .closeAfterAnswer(channel)
        }.get()
    }

    /// The request `head` stands for. Its authority is the Host header's (NIO's conversion takes it from there),
    /// but an absolute-form target's own when it has one (`GET http://HOST/path`: RFC 9112 §3.2.2, the target's
    /// authority wins); the gate checks whichever it is. Any other target that is not a path (`evil:/_admin/x`,
    /// `*`) is kept as it came, which the gate refuses: the conversion would have read a path out of it.
    static func request(_ head: HTTPRequestHead) throws -> HTTPRequest {
        var request = try HTTPRequest(head, secure: false, splitCookie: false)
        guard head.uri.utf8.first != UInt8(ascii: "/"), head.method != .CONNECT else { return request }
        if let authority = absoluteFormAuthority(head.uri) {
            // Without a Host header the request is refused as it is (RFC 9112 §3.2), whatever its target says.
            if request.authority != nil { request.authority = String(authority) }
        } else {
            request.path = head.uri
        }
        return request
    }

    /// What comes between `://` and the path, query or fragment: `evil.example:80` of
    /// `http://evil.example:80/_admin/state`; nil when `target` has no `://`.
    static func absoluteFormAuthority(_ target: String) -> Substring? {
        guard let separator = target.range(of: "://") else { return nil }
        let rest = target[separator.upperBound...]
        return rest[..<(rest.firstIndex { $0 == "/" || $0 == "?" || $0 == "#" } ?? rest.endIndex)]
    }
}
