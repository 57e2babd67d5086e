import AccessAPI
import Foundation
import HTTPTypes
import NIOCore
import NIOHTTPTypes
import Synchronization

/// Every connection the server holds, for the connection cap: how many there are, and which of them
/// could make room for a new one.
final class ConnectionRegistry: Sendable {
    private struct Entry {
        let channel: any Channel
        /// When it last started waiting on its client (connected, or its last answer sent); nil while a
        /// request of it is being answered: that one is never pushed out.
        var waitingSince: NIODeadline?
    }

    enum Admission {
        case admitted
        /// At the cap: this connection, the one that has waited longest on its client, made room.
        case admittedInPlaceOf(any Channel)
        /// At the cap with every connection's request being answered.
        case refused
    }

    private let maxConnections: Int
    private let entries = Mutex<[ObjectIdentifier: Entry]>([:])

    init(maxConnections: Int) { self.maxConnections = maxConnections }

    func admit(_ id: ObjectIdentifier, channel: any Channel, at now: NIODeadline) -> Admission {
        entries.withLock { entries in
            var victim: (any Channel)?
            if entries.count >= maxConnections {
                let oldest = entries.filter { $0.value.waitingSince != nil }.min {
                    $0.value.waitingSince! < $1.value.waitingSince!
                }
                guard let oldest else { return .refused }
                entries[oldest.key] = nil
                victim = oldest.value.channel
            }
            entries[id] = Entry(channel: channel, waitingSince: now)
            return victim.map { .admittedInPlaceOf($0) } ?? .admitted
        }
    }

    func update(_ id: ObjectIdentifier, waitingSince: NIODeadline?) {
        entries.withLock { $0[id]?.waitingSince = waitingSince }
    }

    func leave(_ id: ObjectIdentifier) {
        _ = entries.withLock { $0.removeValue(forKey: id) }
    }

    var counts: (open: Int, answering: Int) {
        entries.withLock { entries in (entries.count, entries.values.filter { $0.waitingSince == nil }.count) }
    }
}

/// Keeps slow and idle clients from holding connections (issue 25: 13.6k half-sent requests held 343 MB
/// and starved new clients). Hummingbird's own `idleTimeout` closes a connection on which nothing
/// arrived for a while, but it counts a decoded part as activity, so a head or a body sent a byte now and
/// then would never end; and nothing caps the number of connections. This handler adds both, on the
/// decoded HTTP parts:
/// - the head must be complete within `headerTimeout` of its first byte,
/// - the body within `bodyTimeout` of the head,
/// - at `maxConnections`, a new connection pushes out the one that has waited longest on its client
///   (idle, or sending slowly); a connection whose request is being answered is never pushed out, and
///   when every one is, the new one gets a 503 `server_busy` and is closed.
/// A request being answered has no deadline here: a slow answer (a latency fault, a held request) is the
/// server's doing, not the client's.
final class ConnectionGuard: ChannelDuplexHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPRequestPart
    typealias InboundOut = HTTPRequestPart
    typealias OutboundIn = HTTPResponsePart
    typealias OutboundOut = HTTPResponsePart

    private enum Reading {
        /// Between requests; no byte of the next one seen.
        case nothing
        case head
        case body
    }

    private let limits: ReferenceBackend.ConnectionLimits
    private let registry: ConnectionRegistry
    private var reading = Reading.nothing
    /// Requests whose head arrived and whose answer is not yet complete.
    private var unanswered = 0
    /// Whether any part arrived since the last `channelReadComplete`.
    private var partsInThisRead = false
    private var admitted = false
    private var refused = false
    private var deadline: Scheduled<Void>?

    init(limits: ReferenceBackend.ConnectionLimits, registry: ConnectionRegistry) {
        self.limits = limits
        self.registry = registry
    }

    private var id: ObjectIdentifier { ObjectIdentifier(self) }

    func handlerAdded(context: ChannelHandlerContext) {
        if context.channel.isActive { admit(context) }
    }

    func channelActive(context: ChannelHandlerContext) {
        admit(context)
        context.fireChannelActive()
    }

    func channelInactive(context: ChannelHandlerContext) {
        stopClock()
        registry.leave(id)
        context.fireChannelInactive()
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        stopClock()
        registry.leave(id)
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        // A refused connection is closing: nothing it sent may reach the router.
        guard !refused else { return }
        partsInThisRead = true
        switch unwrapInboundIn(data) {
        case .head:
            unanswered += 1
            reading = .body
            startClock(limits.bodyTimeout, context)
            registry.update(id, waitingSince: nil)
        case .body:
            break
        case .end:
            reading = .nothing
            stopClock()
            // Answered before its body had all arrived (a refusal that did not need the body).
            if unanswered == 0 { registry.update(id, waitingSince: .now()) }
        }
        context.fireChannelRead(data)
    }

    /// Bytes that decoded into no part are the start of a head still coming: its clock starts now.
    func channelReadComplete(context: ChannelHandlerContext) {
        if !partsInThisRead, reading == .nothing, unanswered == 0 {
            reading = .head
            startClock(limits.headerTimeout, context)
        }
        partsInThisRead = false
        context.fireChannelReadComplete()
    }

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        if case .end = unwrapOutboundIn(data) {
            unanswered = max(0, unanswered - 1)
            if unanswered == 0, reading == .nothing {
                registry.update(id, waitingSince: .now())
            }
        }
        context.write(data, promise: promise)
    }

    private func admit(_ context: ChannelHandlerContext) {
        guard !admitted else { return }
        admitted = true
        switch registry.admit(id, channel: context.channel, at: .now()) {
        case .admitted:
            break
        case .admittedInPlaceOf(let oldest):
            oldest.close(promise: nil)
        case .refused:
            refused = true
            refuse(context)
        }
    }

    /// Answers before any request: the client learns why, instead of seeing the connection drop.
    private func refuse(_ context: ChannelHandlerContext) {
        let detail = APIErrorDetail(
            code: .serverBusy, message: "The server has too many connections open. Try again in a moment.")
        let body = (try? APIJSON.makeEncoder().encode(APIErrorBody(error: detail))) ?? Data()
        let head = HTTPResponse(
            status: .serviceUnavailable,
            headerFields: [
                .contentType: "application/json", .contentLength: String(body.count), .connection: "close",
                .retryAfter: "1",
            ])
        context.write(wrapOutboundOut(.head(head)), promise: nil)
        context.write(wrapOutboundOut(.body(ByteBuffer(bytes: body))), promise: nil)
        let channel = context.channel
        context.writeAndFlush(wrapOutboundOut(.end(nil))).whenComplete { _ in channel.close(promise: nil) }
    }

    private func startClock(_ timeout: Duration, _ context: ChannelHandlerContext) {
        stopClock()
        let channel = context.channel
        deadline = context.eventLoop.scheduleTask(in: TimeAmount(timeout)) { channel.close(promise: nil) }
    }

    private func stopClock() {
        deadline?.cancel()
        deadline = nil
    }
}
