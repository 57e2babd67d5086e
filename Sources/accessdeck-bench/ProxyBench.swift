import AccessBackend
import AccessProxy
import AsyncHTTPClient
import Foundation
import Logging

/// Issue 52 item 1: the latency `accessdeck proxy` adds on loopback. The same client asks the reference backend
/// for GET /health directly and through a proxy in front of it, the two interleaved so that both see the same
/// load; the figures are each path's p50 and p99 and their difference. Prints, asserts nothing.
enum ProxyBench {
    static let count = 2000

    static func run(logger: Logger) async throws {
        let backend = try await ReferenceBackend.start(.init(logger: logger))
        let proxy = try await AccessProxy.start(
            .init(upstream: try AccessProxy.upstream(backend.baseURL), logger: logger))
        let client = HTTPClient(eventLoopGroup: HTTPClient.defaultEventLoopGroup)
        let direct = HTTPClientRequest(url: backend.baseURL + "/health")
        let proxied = HTTPClientRequest(url: proxy.baseURL + "/health")
        let clock = ContinuousClock()
        func timed(_ request: HTTPClientRequest) async throws -> Duration {
            let started = clock.now
            let response = try await client.execute(request, timeout: .seconds(30))
            _ = try await response.body.collect(upTo: 1 << 20)
            return clock.now - started
        }
        // Warms both connection pools and the proxy's own pool to the backend.
        for _ in 0..<100 {
            _ = try await timed(direct)
            _ = try await timed(proxied)
        }
        var alone: [Duration] = []
        var through: [Duration] = []
        for _ in 0..<count {
            alone.append(try await timed(direct))
            through.append(try await timed(proxied))
        }
        alone.sort()
        through.sort()
        func ms(_ duration: Duration) -> Double {
            let (seconds, attoseconds) = duration.components
            return Double(seconds) * 1000 + Double(attoseconds) / 1e15
        }
        func line(_ name: String, _ samples: [Duration]) -> String {
            "  \(name) "
                + String(format: "p50 %.3f ms  p99 %.3f ms", ms(samples[count / 2]), ms(samples[count * 99 / 100]))
        }
        print("proxy: GET /health x\(count) over loopback, upstream alone and through `accessdeck proxy`:")
        print(line("upstream alone:", alone))
        print(line("through proxy: ", through))
        print(
            String(
                format: "  added: p50 %.3f ms  p99 %.3f ms",
                ms(through[count / 2]) - ms(alone[count / 2]),
                ms(through[count * 99 / 100]) - ms(alone[count * 99 / 100])))
        try await client.shutdown()
        await proxy.shutdown()
        await backend.shutdown()
    }
}
