import Foundation
import Hummingbird
import HummingbirdCore
import Logging
import NIOCore
import NIOHTTP1
import NIOHTTPTypes
import ServiceLifecycle
import Synchronization

/// Serves the router on one address, and for the `refused` fault stops listening — a real "connection
/// refused" — then listens again on the same port with the same router. Each stretch of listening is its
/// own Hummingbird application: a stopped one finishes its requests in flight while the port refuses.
/// Generic over its responder: the proxy (issue 52) listens through it too, with `serve`'s connection limits.
final class Listener<Responder: HTTPResponder>: Sendable
where Responder.Context: InitializableFromSource<ApplicationRequestContextSource> {
    private struct Serving {
        let group: ServiceGroup
        let task: Task<Void, any Error>
        let channel: any Channel
    }

    private struct State {
        var port: Int
        var serving: Serving?
        /// Applications stopped for a refusal, still finishing their requests.
        var retired: [Task<Void, any Error>] = []
        /// Waits out a refusal, then listens again.
        var refusal: Task<Void, Never>?
        var stopped = false
    }

    private let host: String
    private let responder: Responder
    private let limits: ReferenceBackend.ConnectionLimits
    /// Shared by every stretch of listening: connections of a stopped application still count.
    private let connections: ConnectionRegistry
    private let logger: Logger
    /// The service group's name for it, in the logs.
    private let name: String
    private let state: Mutex<State>
    private let finished = OneShot<Void>()

    /// Listens on `host:port` (0: any free port; `port` then holds the real one).
    init(
        host: String, port: Int, responder: Responder, limits: ReferenceBackend.ConnectionLimits,
        connections: ConnectionRegistry, logger: Logger, name: String = "reference backend"
    ) async throws {
        self.host = host
        self.name = name
        self.responder = responder
        self.limits = limits
        self.connections = connections
        self.logger = logger
        state = Mutex(State(port: port))
        let serving = try await listen(port: port)
        let bound = serving.channel.localAddress?.port ?? port
        state.withLock { s in
            s.port = bound
            s.serving = serving
        }
    }

    var port: Int { state.withLock { $0.port } }

    /// Stops accepting connections and returns once the port refuses them; requests in flight (the one
    /// asking for this included) still get their answers. After `duration`, or `endRefusal()`, `onEnd`
    /// runs and the port listens again.
    func refuse(for duration: Duration, onEnd: @escaping @Sendable () -> Void) async {
        let serving = state.withLock { s -> Serving? in
            guard !s.stopped, let serving = s.serving else { return nil }
            s.serving = nil
            s.retired.append(serving.task)
            return serving
        }
        guard let serving else { return }
        await serving.group.triggerGracefulShutdown()
        // The graceful shutdown closes the listening socket first, then waits for the connections.
        try? await serving.channel.closeFuture.get()
        // Detached: a task started here would inherit the stopped application's graceful-shutdown state,
        // and the next application would stop as soon as it started.
        let refusal = Task.detached {
            try? await Task.sleep(for: duration)
            onEnd()
            await self.listenAgain()
        }
        state.withLock { $0.refusal = refusal }
    }

    /// Ends a refusal now; returns once the port listens again.
    func endRefusal() async {
        let refusal = state.withLock { $0.refusal }
        refusal?.cancel()
        await refusal?.value
    }

    private func listenAgain() async {
        let port = state.withLock { $0.stopped ? nil : $0.port }
        guard let port else { return }
        do {
            let serving = try await listen(port: port)
            let kept = state.withLock { s -> Bool in
                s.refusal = nil
                guard !s.stopped else { return false }
                s.serving = serving
                return true
            }
            if !kept {
                await serving.group.triggerGracefulShutdown()
                _ = try? await serving.task.value
            }
        } catch {
            // Another process took the port meanwhile: the backend cannot go on.
            logger.error("could not listen again after a refused fault", metadata: ["port": "\(port)"])
            finished.resolve(.failure(error))
        }
    }

    /// Stops listening, ends a refusal without listening again, and returns once every request in flight
    /// has its answer.
    func shutdown() async {
        let (serving, retired, refusal) = state.withLock { s in
            s.stopped = true
            defer {
                s.serving = nil
                s.retired = []
            }
            return (s.serving, s.retired, s.refusal)
        }
        refusal?.cancel()
        await refusal?.value
        if let serving { await serving.group.triggerGracefulShutdown() }
        var failure: (any Error)?
        for task in retired + [serving?.task].compactMap({ $0 }) {
            do { try await task.value } catch { failure = error }
        }
        finished.resolve(failure.map { .failure($0) } ?? .success(()))
    }

    /// Returns after `shutdown()`, or throws when serving failed.
    func waitUntilStopped() async throws {
        try await finished.wait()
    }

    private func listen(port: Int) async throws -> Serving {
        let ready = OneShot<any Channel>()
        let (limits, connections) = (limits, connections)
        let app = Application(
            responder: responder,
            server: HTTPServerBuilder { responder in
                ServerChannel(responder: responder, limits: limits, registry: connections)
            },
            configuration: .init(address: .hostname(host, port: port), serverName: nil),
            onServerRunning: { channel in ready.resolve(.success(channel)) },
            logger: logger)
        // Named here: without a name the group writes the application out by reflection ("\(service)"), a runtime
        // protocol-conformance lookup for every type inside it, some 1.2 M instructions of each start (issue 34).
        let group = ServiceGroup(
            configuration: .init(
                services: [.init(service: app, serviceName: name)], logger: logger))
        let finished = self.finished
        let task = Task.detached {
            do {
                try await group.run()
                ready.resolve(.failure(CancellationError()))
            } catch {
                ready.resolve(.failure(error))
                finished.resolve(.failure(error))
                throw error
            }
        }
        let channel = try await ready.wait()
        return Serving(group: group, task: task, channel: channel)
    }
}

/// Hummingbird's `HTTP1Channel` with `ConnectionHandler` in the place of its `HTTP1ToHTTPServerCodec` (which
/// loses an absolute-form target's authority, issue 45 item 5): NIO's HTTP/1 codec, `ConnectionHandler`,
/// Hummingbird's idle timeout, and the requests handed to Hummingbird as `HTTP1Channel` hands them; and each
/// connection's kernel send buffer fixed at `ConnectionGuard.sendBufferBytes`.
struct ServerChannel: ServerChildChannel, HTTPChannelHandler {
    typealias Value = NIOAsyncChannel<HTTPRequestPart, HTTPResponsePart>

    let responder: HTTPChannelHandler.Responder
    let limits: ReferenceBackend.ConnectionLimits
    let registry: ConnectionRegistry

    func setup(channel: any Channel, logger: Logger) -> EventLoopFuture<Value> {
        channel.eventLoop.makeCompletedFuture {
            // As `HTTP1Channel` sets them: 80 KiB of request line and headers, at most 1,000 headers.
            var decoderLimits = NIOHTTPDecoderLimitConfiguration()
            decoderLimits.maxHeaderFieldSize = 80 * 1024
            decoderLimits.maxHeaderListSize = 80 * 1024
            decoderLimits.maxHeaderFieldCount = 1000
            try channel.syncOptions?.setOption(
                .socketOption(.so_sndbuf), value: SocketOptionValue(ConnectionGuard.sendBufferBytes))
            let pipeline = channel.pipeline.syncOperations
            try pipeline.configureHTTPServerPipeline(
                withPipeliningAssistance: false, withErrorHandling: false, withOutboundHeaderValidation: false,
                withEncoderConfiguration: .init(), withDecoderLimitConfiguration: decoderLimits)
            try pipeline.addHandler(ConnectionHandler(limits: limits, registry: registry))
            // Hummingbird's own: closes a connection on which no request has arrived for this long.
            try pipeline.addHandler(HTTPConnectionStateHandler(idleTimeout: limits.idleTimeout, logger: logger))
            return try NIOAsyncChannel(
                wrappingChannelSynchronously: channel, configuration: .init(isOutboundHalfClosureEnabled: true))
        }
    }

    func handle(value: Value, logger: Logger) async {
        await handleHTTP(asyncChannel: value, logger: logger)
    }
}

/// One hand-over of a value (or an error) to whoever waits, before or after it arrives; later ones are ignored.
final class OneShot<Value: Sendable>: Sendable {
    private let state = Mutex<(result: Result<Value, any Error>?, waiters: [CheckedContinuation<Value, any Error>])>(
        (nil, []))

    func resolve(_ result: Result<Value, any Error>) {
        let waiters = state.withLock { s -> [CheckedContinuation<Value, any Error>] in
            guard s.result == nil else { return [] }
            s.result = result
            defer { s.waiters = [] }
            return s.waiters
        }
        for waiter in waiters { waiter.resume(with: result) }
    }

    func wait() async throws -> Value {
        try await withCheckedThrowingContinuation { continuation in
            let ready: Result<Value, any Error>? = state.withLock { s in
                if let result = s.result { return result }
                s.waiters.append(continuation)
                return nil
            }
            if let ready { continuation.resume(with: ready) }
        }
    }
}

/// The `refused` fault's way to the listener, which is made only once the router (and the handler that
/// needs this) exists.
final class RefusalSwitch: Sendable {
    private let listener = Mutex<Listener<WorldsResponder>?>(nil)

    func connect(_ listener: Listener<WorldsResponder>) {
        self.listener.withLock { $0 = listener }
    }

    func refuse(for duration: Duration, onEnd: @escaping @Sendable () -> Void) async {
        await listener.withLock { $0 }?.refuse(for: duration, onEnd: onEnd)
    }

    func end() async {
        await listener.withLock { $0 }?.endRefusal()
    }
}
