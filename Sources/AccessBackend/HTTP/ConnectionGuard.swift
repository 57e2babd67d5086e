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
/// then would never end; and nothing caps the number of connections. This adds both, on the decoded HTTP
/// parts `ConnectionHandler` hands it:
/// - the head must be complete within `headerTimeout` of its first byte,
/// - the body within `bodyTimeout` of the head,
/// - at `maxConnections`, a new connection pushes out the one that has waited longest on its client
///   (idle, or sending slowly); a connection whose request is being answered is never pushed out, and
///   when every one is, the new one gets a 503 `server_busy` and is closed.
/// A request being answered has no deadline here: a slow answer (a latency fault, a held request) is the
/// server's doing, not the client's.
/// A class, as the handlers it was made from were: closing a channel from inside one of its methods runs
/// `leave()` before that method returns, which a struct's exclusive access would refuse.
final class ConnectionGuard {
    private enum Reading {
        /// Between requests; no byte of the next one seen.
        case nothing
        case head
        case body
    }

    private let limits: ReferenceBackend.ConnectionLimits
    private let registry: ConnectionRegistry
    /// The registry's key for this connection.
    private var id: ObjectIdentifier { ObjectIdentifier(self) }
    private var reading = Reading.nothing
    /// Requests whose head arrived and whose answer is not yet complete.
    private var unanswered = 0
    /// Whether any part arrived since the last `readComplete`.
    private var partsInThisRead = false
    private var admitted = false
    /// Refused at the cap: it is closing, and nothing it sent may reach the router.
    private(set) var refused = false
    /// When the head or body being read must be complete; nil while no clock runs.
    private var deadline: NIODeadline?
    /// One timer for all the deadlines of a connection, set for the earliest: scheduling and cancelling a task
    /// for every request was some 3.6 K instructions of each (issue 34 item 2). When it fires it closes the
    /// connection if the deadline has passed, waits on for a later one, or ends when none is left.
    private var timer: (fires: NIODeadline, task: Scheduled<Void>)?

    init(limits: ReferenceBackend.ConnectionLimits, registry: ConnectionRegistry) {
        self.limits = limits
        self.registry = registry
    }

    func admit(_ context: ChannelHandlerContext) {
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

    func leave() {
        deadline = nil
        timer?.task.cancel()
        timer = nil
        registry.leave(id)
    }

    func read(_ part: HTTPRequestPart, _ context: ChannelHandlerContext, handler: ConnectionHandler) {
        partsInThisRead = true
        switch part {
        case .head:
            unanswered += 1
            reading = .body
            startClock(limits.bodyTimeout, context, handler: handler)
            registry.update(id, waitingSince: nil)
        case .body:
            break
        case .end:
            reading = .nothing
            deadline = nil
            // Answered before its body had all arrived (a refusal that did not need the body).
            if unanswered == 0 { registry.update(id, waitingSince: .now()) }
        }
    }

    /// Bytes that decoded into no part are the start of a head still coming: its clock starts now.
    func readComplete(_ context: ChannelHandlerContext, handler: ConnectionHandler) {
        if !partsInThisRead, reading == .nothing, unanswered == 0 {
            reading = .head
            startClock(limits.headerTimeout, context, handler: handler)
        }
        partsInThisRead = false
    }

    func write(_ part: HTTPResponsePart) {
        if case .end = part {
            unanswered = max(0, unanswered - 1)
            if unanswered == 0, reading == .nothing {
                registry.update(id, waitingSince: .now())
            }
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
        context.write(NIOAny(HTTPResponsePart.head(head)), promise: nil)
        context.write(NIOAny(HTTPResponsePart.body(ByteBuffer(bytes: body))), promise: nil)
        let channel = context.channel
        context.writeAndFlush(NIOAny(HTTPResponsePart.end(nil))).whenComplete { _ in channel.close(promise: nil) }
    }

    private func startClock(
        _ timeout: Duration, _ context: ChannelHandlerContext, handler: ConnectionHandler
    ) {
        let due = NIODeadline.now() + TimeAmount(timeout)
        deadline = due
        if let timer, timer.fires <= due { return }
        timer?.task.cancel()
        schedule(at: due, context, handler: handler)
    }

    private func schedule(at due: NIODeadline, _ context: ChannelHandlerContext, handler: ConnectionHandler) {
        let task = context.eventLoop.assumeIsolated().scheduleTask(deadline: due) {
            handler.deadlineTimerFired(context)
        }
        timer = (due, task)
    }

    /// The timer's turn, on the connection's event loop.
    func timerFired(_ context: ChannelHandlerContext, handler: ConnectionHandler) {
        timer = nil
        guard let deadline else { return }
        if deadline <= .now() {
            context.close(promise: nil)
        } else {
            schedule(at: deadline, context, handler: handler)
        }
    }
}
