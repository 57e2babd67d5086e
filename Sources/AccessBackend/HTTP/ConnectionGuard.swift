import AccessAPI
import Foundation
import HTTPTypes
import NIOCore
import NIOHTTP1
import NIOHTTPTypes
import Synchronization

/// Every connection the server holds, for the connection cap: how many there are, and which of them
/// could make room for a new one.
final class ConnectionRegistry: Sendable {
    /// One connection's place. Its guard moves `waitingSince` twice a request without the registry's lock: the
    /// dictionary's lookup and the lock were 1.7 K instructions of each request (issue 34 item 2).
    final class Slot: Sendable {
        fileprivate let channel: any Channel
        /// The uptime in nanoseconds since which it waits on its client (connected, or its last answer sent);
        /// `answering` while a request of it is being answered: that one is never pushed out. `pushedOut` once
        /// it made room for another.
        private let waiting: Atomic<UInt64>
        private static let answering = UInt64.max
        private static let pushedOut = UInt64.max - 1

        fileprivate init(channel: any Channel, waitingSince: NIODeadline) {
            self.channel = channel
            waiting = Atomic(waitingSince.uptimeNanoseconds)
        }

        func update(waitingSince: NIODeadline?) {
            var current = waiting.load(ordering: .relaxed)
            while current != Self.pushedOut {
                let (exchanged, original) = waiting.weakCompareExchange(
                    expected: current, desired: waitingSince?.uptimeNanoseconds ?? Self.answering,
                    ordering: .relaxed)
                if exchanged { return }
                current = original
            }
        }

        /// Since when it waits on its client; nil while it answers a request or once pushed out.
        fileprivate var waitingSince: UInt64? {
            let value = waiting.load(ordering: .relaxed)
            return value >= Self.pushedOut ? nil : value
        }

        /// Pushed out if it still waits since `since`: a request that arrived meanwhile keeps it.
        fileprivate func pushOut(ifWaitingSince since: UInt64) -> Bool {
            waiting.compareExchange(expected: since, desired: Self.pushedOut, ordering: .relaxed).exchanged
        }
    }

    enum Admission {
        case admitted(Slot)
        /// At the cap: this connection, the one that has waited longest on its client, made room.
        case admittedInPlaceOf(any Channel, Slot)
        /// At the cap with every connection's request being answered.
        case refused
    }

    private let maxConnections: Int
    private let slots = Mutex<[ObjectIdentifier: Slot]>([:])

    init(maxConnections: Int) { self.maxConnections = maxConnections }

    func admit(_ channel: any Channel, at now: NIODeadline) -> Admission {
        slots.withLock { slots in
            var pushedOut: (any Channel)?
            while slots.count >= maxConnections {
                let oldest = slots.values.lazy.compactMap { slot in slot.waitingSince.map { (slot, $0) } }
                    .min { $0.1 < $1.1 }
                guard let (slot, since) = oldest else { return .refused }
                // A request of it arrived since it was read: look again.
                guard slot.pushOut(ifWaitingSince: since) else { continue }
                slots[ObjectIdentifier(slot)] = nil
                pushedOut = slot.channel
            }
            let slot = Slot(channel: channel, waitingSince: now)
            slots[ObjectIdentifier(slot)] = slot
            return pushedOut.map { .admittedInPlaceOf($0, slot) } ?? .admitted(slot)
        }
    }

    func leave(_ slot: Slot) {
        _ = slots.withLock { $0.removeValue(forKey: ObjectIdentifier(slot)) }
    }

    var counts: (open: Int, answering: Int) {
        slots.withLock { slots in (slots.count, slots.values.filter { $0.waitingSince == nil }.count) }
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
    /// Its place in the registry, once admitted.
    private var slot: ConnectionRegistry.Slot?
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
        switch registry.admit(context.channel, at: .now()) {
        case .admitted(let slot):
            self.slot = slot
        case .admittedInPlaceOf(let oldest, let slot):
            self.slot = slot
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
        if let slot { registry.leave(slot) }
        slot = nil
    }

    func read(_ part: HTTPRequestPart, _ context: ChannelHandlerContext, handler: ConnectionHandler) {
        partsInThisRead = true
        switch part {
        case .head:
            unanswered += 1
            reading = .body
            startClock(limits.bodyTimeout, context, handler: handler)
            slot?.update(waitingSince: nil)
        case .body:
            break
        case .end:
            reading = .nothing
            deadline = nil
            // Answered before its body had all arrived (a refusal that did not need the body).
            if unanswered == 0 { slot?.update(waitingSince: .now()) }
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
                slot?.update(waitingSince: .now())
            }
        }
    }

    /// Answers before any request: the client learns why, instead of seeing the connection drop.
    private func refuse(_ context: ChannelHandlerContext) {
        let detail = APIErrorDetail(
            code: .serverBusy, message: "The server has too many connections open. Try again in a moment.")
        let body = (try? APIJSON.makeEncoder().encode(APIErrorBody(error: detail))) ?? Data()
        let head = HTTPResponseHead(
            version: .http1_1, status: .serviceUnavailable,
            headers: [
                "Content-Type": "application/json", "Content-Length": String(body.count), "Connection": "close",
                "Retry-After": "1",
            ])
        context.write(NIOAny(HTTPServerResponsePart.head(head)), promise: nil)
        context.write(NIOAny(HTTPServerResponsePart.body(.byteBuffer(ByteBuffer(bytes: body)))), promise: nil)
        let channel = context.channel
        context.writeAndFlush(NIOAny(HTTPServerResponsePart.end(nil))).whenComplete { _ in
            channel.close(promise: nil)
        }
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
