import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// A JSON POST sent from another loopback address: on Linux all of 127.0.0.0/8 is this machine, so a
/// test can play many clients, each with its own address, against limits counted per client address.
public enum FromAddress {
    public static func post(port: Int, from source: String, path: String, json: Data) async throws -> RawHTTP.Answer {
        let head =
            "POST \(path) HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nContent-Type: application/json\r\n"
            + "Content-Length: \(json.count)\r\nConnection: close\r\n\r\n"
        let request = Data(head.utf8) + json
        // On a thread of its own, like RawHTTP: blocking calls must not hold a cooperative-pool thread.
        return try await withCheckedThrowingContinuation { continuation in
            Thread {
                continuation.resume(with: Result { try exchange(port: port, from: source, request) })
            }.start()
        }
    }

    private static func exchange(port: Int, from source: String, _ request: Data) throws -> RawHTTP.Answer {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw TestFailure("socket failed") }
        defer { close(fd) }
        // As long as TestBackend's client waits: the whole suite shares two cores.
        var timeout = timeval(tv_sec: 30, tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        var local = sockaddr_in()
        local.sin_family = sa_family_t(AF_INET)
        local.sin_addr.s_addr = inet_addr(source)
        let bound = withUnsafePointer(to: &local) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard bound == 0 else { throw TestFailure("bind to \(source) failed: \(errno)") }
        var remote = sockaddr_in()
        remote.sin_family = sa_family_t(AF_INET)
        remote.sin_port = in_port_t(UInt16(port).bigEndian)
        remote.sin_addr.s_addr = inet_addr("127.0.0.1")
        let connected = withUnsafePointer(to: &remote) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard connected == 0 else { throw TestFailure("connect from \(source) failed: \(errno)") }
        let sent = request.withUnsafeBytes { Glibc.send(fd, $0.baseAddress!, $0.count, Int32(MSG_NOSIGNAL)) }
        guard sent == request.count else { throw TestFailure("short write from \(source)") }
        var received = Data()
        var chunk = [UInt8](repeating: 0, count: 65_536)
        while true {
            let count = recv(fd, &chunk, chunk.count, 0)
            if count < 0 { throw TestFailure("no answer to \(source) within 30 s (errno \(errno))") }
            if count == 0 { break }
            received.append(contentsOf: chunk[0..<count])
        }
        guard let split = received.range(of: Data("\r\n\r\n".utf8)) else {
            throw TestFailure("no HTTP response: \(String(decoding: received, as: UTF8.self))")
        }
        let head = String(decoding: received[..<split.lowerBound], as: UTF8.self)
        let status = head.split(separator: " ").dropFirst().first.flatMap { Int($0) } ?? 0
        return RawHTTP.Answer(status: status, head: head, body: received[split.upperBound...])
    }
}
