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
        /// The uptime in nanoseconds since which it waits on its client (connected, its last answer sent, or its
        /// answer no longer taken); `answering` while a request of it is being answered: that one is never pushed
        /// out. `pushedOut` once it made room for another.
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
/// - an answer its client does not take (the connection's outgoing buffer over its high-water mark) must
///   see some of its bytes go out within `writeTimeout`, each time; meanwhile nothing more is read,
/// - pipelined requests go on to the router one at a time, each once the answer before it is out of the server
///   and its client takes answers; until then their parts wait here,
/// - at most `maxQueuedRequests` requests read and not yet answered: past them, nothing more is read, what
///   was already read is dropped, and the connection closes after its last answer,
/// - at `maxConnections`, a new connection pushes out the one that has waited longest on its client
///   (idle, sending slowly, or not taking its answer); a connection whose request is being answered is never
///   pushed out, and when every one is, the new one gets a 503 `server_busy` and is closed.
/// Issue 45 item 1: clients that pipelined requests and never read held their answers, and their connections,
/// for ever; eight of them locked every other client out at a cap of eight.
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

    /// Requests one connection may have read and not yet answered. A client that pipelines at all sends a few
    /// ahead; one that sends more gets answers to these, then the connection closes, and sends the rest again.
    /// Each one waiting is a decoded head (about a kilobyte; a single read of 256 KiB could hold thousands).
    static let maxQueuedRequests = 8

    /// After a connection's last answer is out its output closes at once, its input only after this: the client may
    /// still be sending (what it pipelined past `maxQueuedRequests`, a body refused before it was read), and a
    /// close with its bytes unread would answer them with a reset, which can cost the client the answer it has
    /// not read yet. Nothing is read meanwhile.
    static let lingerAfterLastAnswer: Duration = .seconds(2)

    /// The kernel's send buffer for each connection (Linux doubles the figure): left to grow, it took up to 4 MiB
    /// of answers a client never read (issue 45: 2.2 MB a connection, 960 MB for 512 of them). Twice this is more
    /// than a loopback or LAN client needs in flight.
    static let sendBufferBytes = 64 * 1024

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
    /// Closing once its requests read so far are answered: nothing more is read, nothing more passed on.
    private var draining = false
    /// A request passed on to the router whose answer is not yet complete.
    private var inFlight = false
    /// The parts of pipelined requests read while one was in flight, passed on one request at a time (`passNext`):
    /// handed on at once, they were answered whether or not the client read, and every answer the client did not
    /// take stayed in the server (issue 45: 512 such clients, 8 requests each, held 445 MB of answers).
    private var waiting: [HTTPRequestPart] = []
    /// The client is not taking the answer: the channel's outgoing buffer is over its high-water mark.
    private var stalled = false
    /// A read held back while stalled, passed on when the client takes the answer.
    private var heldRead = false
    /// Bytes waiting to go out when the write deadline was set: fewer when it passes is progress.
    private var unsentAtWriteDeadline = 0
    /// When the head or body being read must be complete; nil while no clock runs.
    private var deadline: NIODeadline?
    /// When some of a stalled answer must have gone out; nil while not stalled.
    private var writeDeadline: NIODeadline?
    /// One timer for all the deadlines of a connection, set for the earliest: scheduling and cancelling a task
    /// for every request was some 3.6 K instructions of each (issue 34 item 2). When it fires it closes the
    /// connection if a deadline has passed, waits on for a later one, or ends when none is left.
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
        waiting = []
        deadline = nil
        writeDeadline = nil
        timer?.task.cancel()
        timer = nil
        if let slot { registry.leave(slot) }
        slot = nil
    }

    /// Whether `part` goes on to the router now: not once the connection drains (then it is dropped), nor while a
    /// request before it is in flight (then it waits for `passNext`).
    func read(_ part: HTTPRequestPart, _ context: ChannelHandlerContext, handler: ConnectionHandler) -> Bool {
        partsInThisRead = true
        guard !draining else { return false }
        var isHead = false
        switch part {
        case .head:
            isHead = true
            guard unanswered < Self.maxQueuedRequests else {
                // Every request before it is whole (a head follows its predecessor's end): they are answered,
                // then the connection closes.
                draining = true
                reading = .nothing
                deadline = nil
                return false
            }
            unanswered += 1
            reading = .body
            startClock(limits.bodyTimeout, context, handler: handler)
            if !stalled { slot?.update(waitingSince: nil) }
        case .body:
            break
        case .end:
            reading = .nothing
            deadline = nil
            // Answered before its body had all arrived (a refusal that did not need the body).
            if unanswered == 0 { slot?.update(waitingSince: .now()) }
        }
        // What a client that does not pipeline sends goes on at once: only a head read while another request is in
        // flight waits, and what follows it.
        guard waiting.isEmpty, !(isHead && inFlight) else {
            waiting.append(part)
            return false
        }
        if isHead { inFlight = true }
        return true
    }

    /// Bytes that decoded into no part are the start of a head still coming: its clock starts now.
    func readComplete(_ context: ChannelHandlerContext, handler: ConnectionHandler) {
        if !partsInThisRead, reading == .nothing, unanswered == 0, !draining {
            reading = .head
            startClock(limits.headerTimeout, context, handler: handler)
        }
        partsInThisRead = false
    }

    /// A read asked for by the layers above: held back while the client does not take its answer, or while the
    /// connection drains. Without this a client that pipelines and never reads would have the server read and
    /// answer all it sent.
    func passRead(_ context: ChannelHandlerContext) {
        if stalled || draining || !waiting.isEmpty {
            heldRead = true
        } else {
            context.read()
        }
    }

    /// Whether the answer about to be written is the last before the connection closes: its head says so
    /// (`Connection: close`), so a client does not send its next request into a closing connection.
    var isLastAnswer: Bool { draining && unanswered == 1 }

    enum AfterWrite {
        case nothing
        /// The answer in flight is complete: the next request waiting may go on (`passNext`).
        case passNext
        /// The connection's last answer: it closes once this is out.
        case close
    }

    func write(_ part: HTTPResponsePart) -> AfterWrite {
        guard case .end = part else { return .nothing }
        unanswered = max(0, unanswered - 1)
        inFlight = false
        guard unanswered == 0 else { return .passNext }
        if draining { return .close }
        if reading == .nothing { slot?.update(waitingSince: .now()) }
        return .nothing
    }

    /// Passes the next waiting request on to the router, once none is in flight and the client takes answers; and
    /// passes on a read held back, once the client takes answers and no request waits.
    func passNext(_ context: ChannelHandlerContext) {
        guard !stalled else { return }
        if !inFlight, !waiting.isEmpty {
            // Its head and the parts after it, up to the next head.
            var count = 1
            while count < waiting.count {
                if case .head = waiting[count] { break }
                count += 1
            }
            inFlight = true
            let next = waiting[..<count]
            waiting.removeFirst(count)
            for part in next { context.fireChannelRead(NIOAny(part)) }
            context.fireChannelReadComplete()
        }
        if waiting.isEmpty, heldRead, !draining {
            heldRead = false
            context.read()
        }
    }

    /// The answer being written is the connection's last (a 413 before its body was read): nothing more of
    /// what the client sends is read. From the request's task, through the event loop.
    func closeAfterAnswer(_ channel: any Channel) {
        draining = true
        reading = .nothing
        deadline = nil
        if unanswered == 0 { channel.close(promise: nil) }
    }

    /// The channel's writability changed: while the client does not take the answer, the connection waits on
    /// it (at the cap it can be pushed out) and its bytes must make progress within `writeTimeout`.
    func writabilityChanged(_ context: ChannelHandlerContext, handler: ConnectionHandler) {
        let isStalled = !context.channel.isWritable
        guard isStalled != stalled else { return }
        stalled = isStalled
        if stalled {
            slot?.update(waitingSince: .now())
            unsentAtWriteDeadline = Self.unsentBytes(context)
            let due = context.eventLoop.now + TimeAmount(limits.writeTimeout)
            writeDeadline = due
            arm(due, context, handler: handler)
        } else {
            writeDeadline = nil
            if unanswered > 0 { slot?.update(waitingSince: nil) }
            passNext(context)
        }
    }

    /// What the channel holds that has not reached the socket yet.
    private static func unsentBytes(_ context: ChannelHandlerContext) -> Int {
        (try? context.channel.syncOptions?.getOption(.bufferedWritableBytes)) ?? 0
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
        arm(due, context, handler: handler)
    }

    /// The timer fires by `due`, sooner if it already would.
    private func arm(_ due: NIODeadline, _ context: ChannelHandlerContext, handler: ConnectionHandler) {
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

    /// The timer's turn, on the connection's event loop. The write deadline and this read the loop's clock, which
    /// is `NIODeadline.now()` on a real one and a test's own on an embedded one (ConnectionGuardTests).
    func timerFired(_ context: ChannelHandlerContext, handler: ConnectionHandler) {
        timer = nil
        let now = context.eventLoop.now
        if let deadline, deadline <= now {
            context.close(promise: nil)
            return
        }
        if let writeDeadline, writeDeadline <= now {
            // While stalled nothing new is written (the writer above waits for writability): fewer bytes waiting
            // means some went out. A slow client goes on; one that took nothing is gone or holding the answer.
            let unsent = Self.unsentBytes(context)
            guard unsent < unsentAtWriteDeadline else {
                context.close(promise: nil)
                return
            }
            unsentAtWriteDeadline = unsent
            self.writeDeadline = now + TimeAmount(limits.writeTimeout)
        }
        var next = deadline
        if let writeDeadline, next.map({ writeDeadline < $0 }) ?? true { next = writeDeadline }
        if let next { schedule(at: next, context, handler: handler) }
    }
}
