import HTTPTypes
import NIOCore
import NIOEmbedded
import NIOHTTP1
import NIOHTTPTypes
import Testing

@testable import AccessBackend

/// The write timeout on an embedded connection, on the embedded loop's clock (SlowClientTests shows it over real
/// sockets): an answer its client does not take counts as waiting on the client, holds back reads, and closes the
/// connection when none of its bytes has gone out within the timeout; any that go out start the timeout again
/// (issue 45 item 1). The channel's writability and the bytes it holds are set by hand, as a socket's would move.
@Suite struct ConnectionGuardTests {
    static let writeTimeout = Duration.seconds(1)

    /// Counts the reads that get past `ConnectionHandler` to the socket.
    final class ReadCounter: ChannelOutboundHandler {
        typealias OutboundIn = Any
        var reads = 0

        func read(context: ChannelHandlerContext) {
            reads += 1
            context.read()
        }
    }

    private struct Connection {
        let channel: EmbeddedChannel
        let registry: ConnectionRegistry
        let reads: ReadCounter

        var loop: EmbeddedEventLoop { channel.embeddedEventLoop }

        /// Bytes of an answer written toward the socket and not yet taken.
        func queueAnswerBytes(_ count: Int) throws {
            let handler = try channel.pipeline.syncOperations.context(handlerType: ConnectionHandler.self)
            handler.write(NIOAny(ByteBuffer(repeating: UInt8(ascii: "a"), count: count)), promise: nil)
        }

        func setWritable(_ writable: Bool) {
            channel.isWritable = writable
            channel.pipeline.fireChannelWritabilityChanged()
        }
    }

    /// A connection with one request read and its answer begun.
    private func answering() throws -> Connection {
        let registry = ConnectionRegistry(maxConnections: 10)
        let never = Duration.seconds(600)
        let limits = ReferenceBackend.ConnectionLimits(
            headerTimeout: never, bodyTimeout: never, idleTimeout: never, writeTimeout: Self.writeTimeout)
        let reads = ReadCounter()
        let channel = EmbeddedChannel()
        try channel.pipeline.syncOperations.addHandlers(
            reads, ConnectionHandler(limits: limits, registry: registry))
        try channel.connect(to: SocketAddress(ipAddress: "127.0.0.1", port: 1)).wait()
        let head = HTTPRequestHead(version: .http1_1, method: .GET, uri: "/openapi.yaml", headers: ["Host": "a"])
        try channel.writeInbound(HTTPServerRequestPart.head(head))
        try channel.writeInbound(HTTPServerRequestPart.end(nil))
        #expect(registry.counts == (1, 1))
        return Connection(channel: channel, registry: registry, reads: reads)
    }

    @Test func anAnswerNobodyTakesWaitsOnItsClientAndIsClosedAfterTheTimeout() throws {
        let connection = try answering()
        try connection.queueAnswerBytes(100_000)
        connection.setWritable(false)
        // At the cap it can make room: its answer waits on its client.
        #expect(connection.registry.counts == (1, 0))
        // And the server reads nothing more from that client meanwhile.
        let readsBefore = connection.reads.reads
        connection.channel.read()
        #expect(connection.reads.reads == readsBefore)

        connection.loop.advanceTime(by: TimeAmount(Self.writeTimeout) - .milliseconds(1))
        #expect(connection.channel.isActive)
        connection.loop.advanceTime(by: .milliseconds(1))
        #expect(!connection.channel.isActive)
    }

    @Test func bytesGoingOutStartTheTimeoutAgain() throws {
        let connection = try answering()
        try connection.queueAnswerBytes(100_000)
        connection.setWritable(false)
        connection.loop.advanceTime(by: .milliseconds(600))
        // The client took some: the kernel wrote them, as a slow reader lets it.
        connection.channel.flush()
        connection.loop.advanceTime(by: .milliseconds(600))
        #expect(connection.channel.isActive)
        // Nothing more went out for a whole timeout since the progress was seen.
        connection.loop.advanceTime(by: TimeAmount(Self.writeTimeout))
        #expect(!connection.channel.isActive)
    }

    @Test func anAnswerTakenAgainIsTheServersOnceMore() throws {
        let connection = try answering()
        try connection.queueAnswerBytes(100_000)
        connection.setWritable(false)
        let readsBefore = connection.reads.reads
        connection.channel.read()
        connection.channel.flush()
        connection.setWritable(true)
        // Being answered again (never pushed out), and the read held back goes on.
        #expect(connection.registry.counts == (1, 1))
        #expect(connection.reads.reads == readsBefore + 1)
        connection.loop.advanceTime(by: TimeAmount(Self.writeTimeout * 3))
        #expect(connection.channel.isActive)
    }

    /// A pipelined request goes on to the router only once the answer before it is out and taken: handed on at
    /// once, every answer a client did not read stayed in the server.
    @Test func pipelinedRequestsGoOnOneAtATimeOnceTheAnswerBeforeThemIsTaken() throws {
        let connection = try answering()
        let channel = connection.channel
        #expect(try channel.readInbound(as: HTTPRequestPart.self).map(Self.isHead) == true)
        #expect(try channel.readInbound(as: HTTPRequestPart.self).map(Self.isHead) == false)
        let next = HTTPRequestHead(version: .http1_1, method: .GET, uri: "/health", headers: ["Host": "a"])
        try channel.writeInbound(HTTPServerRequestPart.head(next))
        try channel.writeInbound(HTTPServerRequestPart.end(nil))
        #expect(try channel.readInbound(as: HTTPRequestPart.self) == nil)

        // The first answer is written whole, but its client is not taking it.
        try connection.queueAnswerBytes(100_000)
        connection.setWritable(false)
        try channel.writeOutbound(HTTPResponsePart.head(HTTPResponse(status: .ok)))
        try channel.writeOutbound(HTTPResponsePart.end(nil))
        #expect(try channel.readInbound(as: HTTPRequestPart.self) == nil)

        connection.setWritable(true)
        guard case .head(let passed)? = try channel.readInbound(as: HTTPRequestPart.self) else {
            Issue.record("the next request did not go on")
            return
        }
        #expect(passed.path == "/health")
        #expect(try channel.readInbound(as: HTTPRequestPart.self).map(Self.isHead) == false)
    }

    private static func isHead(_ part: HTTPRequestPart) -> Bool {
        if case .head = part { return true }
        return false
    }
}
