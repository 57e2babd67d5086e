import AccessBackend
import AccessBackendTesting
import AccessProxy
import AsyncHTTPClient
import Foundation
import Hummingbird
import Logging
import NIOCore
import ServiceLifecycle
import Synchronization

/// A backend double: a Hummingbird application with the routes a test gives it, on 127.0.0.1:0, for what the
/// reference backend never does (an unlisted status, a body that streams in parts, a redirect).
enum BackendDouble {
    static func with<T>(
        _ router: Router<BasicRequestContext>, _ body: (_ baseURL: String) async throws -> T
    ) async throws -> T {
        let port = Mutex<Int?>(nil)
        let (ready, readyContinuation) = AsyncStream<Void>.makeStream()
        let app = Application(
            router: router, configuration: .init(address: .hostname("127.0.0.1", port: 0), serverName: nil),
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
            let result = try await body("http://127.0.0.1:\(port.withLock { $0 } ?? 0)")
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
    upstream: String, admin: ReferenceBackend.AdminAccess = .open, _ body: (RunningProxy) async throws -> T
) async throws -> T {
    let proxy = try await AccessProxy.start(.init(upstream: try AccessProxy.upstream(upstream), admin: admin))
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
