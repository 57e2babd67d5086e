import AccessBackend
import AccessBackendTesting
import AccessCore
import AccessProxy
import AsyncHTTPClient
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTLS
import Logging
import NIOCore
import ServiceLifecycle
import Synchronization

/// A backend double: a Hummingbird application with the routes a test gives it, on 127.0.0.1:0, for what the
/// reference backend never does (an unlisted status, a body that streams in parts, a redirect). With `tls` it
/// answers https (the base URL names 127.0.0.1, as the test certificate does).
enum BackendDouble {
    static func with<T>(
        _ router: Router<BasicRequestContext>, tls: TLSConfiguration? = nil,
        _ body: (_ baseURL: String) async throws -> T
    ) async throws -> T {
        let port = Mutex<Int?>(nil)
        let (ready, readyContinuation) = AsyncStream<Void>.makeStream()
        let app = Application(
            router: router, server: try tls.map { try .tls(tlsConfiguration: $0) } ?? .http1(),
            configuration: .init(address: .hostname("127.0.0.1", port: 0), serverName: nil),
            onServerRunning: { channel in
                port.withLock { $0 = channel.localAddress?.port }
                readyContinuation.yield()
            }, logger: Logger(label: "double") { _ in SwiftLogNoOpLogHandler() })
        let group = ServiceGroup(
            configuration: .init(
                services: [.init(service: app, serviceName: "double")],
                logger: Logger(label: "double") { _ in SwiftLogNoOpLogHandler() }))
        let running = Task { try await group.run() }
        for await _ in ready { break }
        defer { running.cancel() }
        do {
            let result = try await body("\(tls == nil ? "http" : "https")://127.0.0.1:\(port.withLock { $0 } ?? 0)")
            await group.triggerGracefulShutdown()
            _ = try? await running.value
            return result
        } catch {
            await group.triggerGracefulShutdown()
            _ = try? await running.value
            throw error
        }
    }
}

/// A proxy in front of `upstream` for the length of `body`.
func withProxy<T>(
    upstream: String, admin: ReferenceBackend.AdminAccess = .open, upstreamCA: URL? = nil,
    _ body: (RunningProxy) async throws -> T
) async throws -> T {
    var configuration = AccessProxy.Configuration(upstream: try AccessProxy.upstream(upstream), admin: admin)
    configuration.upstreamCA = upstreamCA
    let proxy = try await AccessProxy.start(configuration)
    do {
        let result = try await body(proxy)
        await proxy.shutdown()
        return result
    } catch {
        await proxy.shutdown()
        throw error
    }
}

/// A client that shows what came back as it came: no redirects followed, nothing decompressed.
let plainClient: HTTPClient = {
    var configuration = HTTPClient.Configuration()
    configuration.redirectConfiguration = .disallow
    configuration.decompression = .disabled
    return HTTPClient(eventLoopGroup: HTTPClient.defaultEventLoopGroup, configuration: configuration)
}()

/// A backend double behind our own front door (`FrontDoor`), whose answers carry the Date of its own clock
/// (`now`), which a test moves: for the rule breaks the reference backend's test policy cannot make (it refuses
/// what a rule refuses with a 400 rather than accepting it). Each route answers JSON: "METHOD /path" → status and
/// body, made for each request.
final class ClockedDouble: HTTPResponder, Sendable {
    typealias Context = BasicRequestContext
    typealias Route = @Sendable () -> (status: Int, body: String)

    let now = Mutex(Date(timeIntervalSince1970: 1_800_000_000))
    private let routes: [String: Route]

    init(_ routes: [String: Route]) {
        self.routes = routes
    }

    func advance(seconds: TimeInterval) {
        now.withLock { $0 = $0.addingTimeInterval(seconds) }
    }

    func respond(to request: Request, context: BasicRequestContext) async throws -> Response {
        _ = try await request.body.collect(upTo: 1 << 20)
        let (status, body) = routes["\(request.method.rawValue) \(request.uri.path)"]?() ?? (404, "{}")
        var headers: HTTPFields = [.contentType: "application/json"]
        headers[FrontDoor<ClockedDouble>.dateField] = HTTPDate.format(now.withLock { $0 })
        return Response(
            status: .init(code: status), headers: headers, body: .init(byteBuffer: ByteBuffer(string: body)))
    }

    /// `body` with the double listening on 127.0.0.1.
    func with<T>(_ body: (_ baseURL: String) async throws -> T) async throws -> T {
        let door = try await FrontDoor(
            host: "127.0.0.1", port: 0, responder: self,
            logger: Logger(label: "double") { _ in SwiftLogNoOpLogHandler() }, name: "double")
        do {
            let result = try await body("http://127.0.0.1:\(door.port)")
            await door.shutdown()
            return result
        } catch {
            await door.shutdown()
            throw error
        }
    }
}
