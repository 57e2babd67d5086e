import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// Bytes straight onto a socket, for requests no well-behaved client library will send (oversized
/// headers, contradictory framing). Writes everything, half-closes, reads to the end.
enum RawHTTP {
    struct Answer {
        var status: Int
        var head: String
        var body: Data

        func header(_ name: String) -> String? {
            for line in head.split(separator: "\r\n").dropFirst() {
                let parts = line.split(separator: ":", maxSplits: 1)
                if parts.count == 2, parts[0].lowercased() == name.lowercased() {
                    return parts[1].trimmingCharacters(in: .whitespaces)
                }
            }
            return nil
        }
    }

    /// Blocking socket calls run on a thread of their own: on the cooperative pool (two threads on two
    /// cores) they could starve the very server tasks that are to answer.
    static func exchange(port: Int, _ request: Data) async throws -> Answer {
        try await withCheckedThrowingContinuation { continuation in
            let thread = Thread {
                continuation.resume(with: Result { try blockingExchange(port: port, request) })
            }
            thread.start()
        }
    }

    private static func blockingExchange(port: Int, _ request: Data) throws -> Answer {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw TestFailure("socket failed") }
        defer { close(fd) }
        var timeout = timeval(tv_sec: 10, tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard connected == 0 else { throw TestFailure("connect failed") }
        // The server may answer and stop reading before all of an oversized request is written.
        _ = request.withUnsafeBytes { buffer -> Int in
            var offset = 0
            while offset < buffer.count {
                let written = Glibc.send(fd, buffer.baseAddress! + offset, buffer.count - offset, Int32(MSG_NOSIGNAL))
                if written <= 0 { break }
                offset += written
            }
            return offset
        }
        shutdown(fd, Int32(SHUT_WR))
        var received = Data()
        var chunk = [UInt8](repeating: 0, count: 65_536)
        while true {
            let count = recv(fd, &chunk, chunk.count, 0)
            if count <= 0 { break }
            received.append(contentsOf: chunk[0..<count])
        }
        guard let split = received.range(of: Data("\r\n\r\n".utf8)) else {
            throw TestFailure("no HTTP response: \(String(decoding: received, as: UTF8.self))")
        }
        let head = String(decoding: received[..<split.lowerBound], as: UTF8.self)
        let status = head.split(separator: " ").dropFirst().first.flatMap { Int($0) } ?? 0
        return Answer(status: status, head: head, body: received[split.upperBound...])
    }
}
