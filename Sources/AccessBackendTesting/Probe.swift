import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// A bare TCP connect, to tell "connection refused" (nothing listens) from anything else.
public enum Probe {
    /// 0 when something accepted the connection, else the `errno` of the failed connect (ECONNREFUSED…).
    public static func connect(port: Int) async -> Int32 {
        // On a thread of its own, like RawHTTP: a blocking call must not hold a cooperative-pool thread.
        await withCheckedContinuation { continuation in
            Thread { continuation.resume(returning: blockingConnect(port: port)) }.start()
        }
    }

    private static func blockingConnect(port: Int) -> Int32 {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { return errno }
        defer { close(fd) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                Glibc.connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        return connected == 0 ? 0 : errno
    }

    /// Tries `attempt` every 50 ms until it returns a value, for at most `bound` of real time: for what
    /// ends on real time (a refusal's seconds, a server noticing a hang-up), never to measure it.
    public static func eventually<T>(
        within bound: Duration = .seconds(30), _ attempt: () async throws -> T?
    ) async throws -> T {
        let deadline = ContinuousClock.now + bound
        while ContinuousClock.now < deadline {
            if let value = try? await attempt() { return value }
            try await Task.sleep(for: .milliseconds(50))
        }
        throw TestFailure("nothing within \(bound)")
    }
}
