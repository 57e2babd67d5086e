import AccessAPI
import Foundation
import Hummingbird
import Logging
import NIOCore
import ServiceLifecycle

// A backend double: a tiny Hummingbird app on 127.0.0.1 serving hand-written answers, so tests can
// speak the contract the way another backend would (its own texts and codes, extra fields,
// fractional seconds, no /_admin) and the reference backend's habits cannot hide in the client.

func json(_ text: String, status: HTTPResponse.Status = .ok) -> Response {
    var headers = HTTPFields()
    headers[.contentType] = "application/json"
    return Response(status: status, headers: headers, body: .init(byteBuffer: ByteBuffer(string: text)))
}

/// Serves `routes` on 127.0.0.1 and hands `body` a signed-in client pointed at them. The time-outs
/// are generous: with hundreds of tests in one process the double can be slow to answer, and a
/// time-out would read as "offline" (only the time-out test itself sets a short one).
func withDouble(
    routes: (Router<BasicRequestContext>) -> Void, requestTimeout: Duration = .seconds(60),
    run body: (AccountClient) async throws -> Void
) async throws {
    let router = Router()
    routes(router)
    let quiet = Logger(label: "test.double") { _ in SwiftLogNoOpLogHandler() }
    let (ports, portSink) = AsyncStream<Int>.makeStream()
    let app = Application(
        router: router, configuration: .init(address: .hostname("127.0.0.1", port: 0)),
        onServerRunning: { channel in portSink.yield(channel.localAddress?.port ?? 0) }, logger: quiet)
    let group = ServiceGroup(configuration: .init(services: [app], logger: quiet))
    try await withThrowingTaskGroup(of: Void.self) { tasks in
        tasks.addTask { try await group.run() }
        var iterator = ports.makeAsyncIterator()
        let port = await iterator.next() ?? 0
        var configuration = AccountClient.Configuration(baseURL: "http://127.0.0.1:\(port)")
        configuration.requestTimeout = requestTimeout
        configuration.connectTimeout = .seconds(30)
        let now = Date()
        let client = AccountClient(
            configuration: configuration, sessionStore: nil,
            initialSession: SessionTokens(
                userId: "usr_1", accessToken: "at_test", accessExpiresAt: now.addingTimeInterval(3600),
                refreshToken: "rt_test", refreshExpiresAt: now.addingTimeInterval(86_400)),
            logger: quiet, sleep: { _ in })
        do {
            try await body(client)
        } catch {
            await client.shutdown()
            await group.triggerGracefulShutdown()
            throw error
        }
        await client.shutdown()
        await group.triggerGracefulShutdown()
        try await tasks.waitForAll()
    }
}

/// A double below any framework, for what Hummingbird will not let a handler say (it writes its
/// own `Date` header on every answer): each connection gets `reply(requestHead)` verbatim, then
/// is closed. Blocking sockets on one thread; enough for a test's few calls.
final class RawHTTPDouble: @unchecked Sendable {
    let port: Int
    private let listener: Int32
    private let thread: Thread

    init(reply: @escaping @Sendable (String) -> String) throws {
        let listener = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = 0
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(listener, $0, length) == 0 && listen(listener, 16) == 0
                    && getsockname(listener, $0, &length) == 0
            }
        }
        guard bound else {
            close(listener)
            throw POSIXError(.EADDRNOTAVAIL)
        }
        self.listener = listener
        port = Int(UInt16(bigEndian: address.sin_port))
        thread = Thread {
            while true {
                let connection = accept(listener, nil, nil)
                guard connection >= 0 else { return }
                var buffer = [UInt8](repeating: 0, count: 65_536)
                var head = ""
                while !head.contains("\r\n\r\n") {
                    let count = read(connection, &buffer, buffer.count)
                    guard count > 0 else { break }
                    head += String(decoding: buffer[0..<count], as: UTF8.self)
                }
                let bytes = Array(reply(head).utf8)
                _ = bytes.withUnsafeBytes { write(connection, $0.baseAddress, $0.count) }
                close(connection)
            }
        }
        thread.start()
    }

    var baseURL: String { "http://127.0.0.1:\(port)" }

    func stop() {
        shutdown(listener, Int32(SHUT_RDWR))
        close(listener)
    }

    /// A whole HTTP/1.1 answer with a JSON body.
    static func response(status: String = "200 OK", headers: [String] = [], json: String) -> String {
        ([
            "HTTP/1.1 \(status)", "Content-Type: application/json", "Content-Length: \(json.utf8.count)",
            "Connection: close",
        ] + headers + ["", json]).joined(separator: "\r\n")
    }
}
