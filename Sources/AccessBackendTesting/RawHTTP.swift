import AccessAPI
import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// Bytes straight onto a socket, for requests no well-behaved client library will send (oversized
/// headers, contradictory framing). Writes everything, half-closes, reads to the end.
public enum RawHTTP {
    public struct Answer: Sendable {
        public var status: Int
        public var head: String
        public var body: Data

        public func header(_ name: String) -> String? {
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
    public static func exchange(port: Int, _ request: Data) async throws -> Answer {
        try await withCheckedThrowingContinuation { continuation in
            let thread = Thread {
                continuation.resume(with: Result { try blockingExchange(port: port, request) })
            }
            thread.start()
        }
    }

    private static func blockingExchange(port: Int, _ request: Data) throws -> Answer {
        let fd = try connectedSocket(port: port)
        defer { close(fd) }
        // As long as TestBackend's client waits: a loaded machine (other builds on both cores) can take seconds.
        var timeout = timeval(tv_sec: 30, tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
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
        guard let answer = parse(received) else {
            throw TestFailure("no HTTP response: \(String(decoding: received, as: UTF8.self))")
        }
        return answer
    }
}

extension RawHTTP {
    /// A connection kept open between writes, for clients that send part of a request and stop: what a
    /// slow or idle client looks like to the server.
    public final class Connection: @unchecked Sendable {
        public enum Outcome: Equatable, Sendable {
            /// The server closed the connection (after `received` bytes, possibly none).
            case closed(received: Data)
            /// Nothing closed it within the bound.
            case stillOpen
        }

        private let fd: Int32

        /// Connects to 127.0.0.1:`port`; throws when the connection is refused. `receiveBuffer`: the socket's
        /// receive buffer in bytes (`SO_RCVBUF`, which Linux doubles), for a client that takes answers slowly or not
        /// at all; nil keeps the system's.
        public init(port: Int, receiveBuffer: Int? = nil) async throws {
            fd = try await RawHTTP.onThread { try RawHTTP.connectedSocket(port: port, receiveBuffer: receiveBuffer) }
        }

        deinit { close(fd) }

        /// Writes `text` (all of it, unless the server has closed the connection).
        public func send(_ text: String) async {
            let bytes = Data(text.utf8)
            await RawHTTP.onThread {
                bytes.withUnsafeBytes { buffer in
                    var offset = 0
                    while offset < buffer.count {
                        let written = Glibc.send(
                            self.fd, buffer.baseAddress! + offset, buffer.count - offset, Int32(MSG_NOSIGNAL))
                        if written <= 0 { return }
                        offset += written
                    }
                }
            }
        }

        /// Reads until the server closes the connection or `bound` of real time has passed. The bound is
        /// only a backstop for a broken server: nothing is measured against it.
        public func waitForClose(within bound: Duration = .seconds(20)) async -> Outcome {
            let deadline = ContinuousClock.now + bound
            return await RawHTTP.onThread {
                var received = Data()
                var chunk = [UInt8](repeating: 0, count: 65_536)
                while ContinuousClock.now < deadline {
                    var poller = pollfd(fd: self.fd, events: Int16(POLLIN), revents: 0)
                    guard poll(&poller, 1, 100) > 0 else { continue }
                    let count = recv(self.fd, &chunk, chunk.count, 0)
                    if count <= 0 { return .closed(received: received) }
                    received.append(contentsOf: chunk[0..<count])
                }
                return .stillOpen
            }
        }

        /// Whether bytes of an answer (or the close) have arrived within `bound`, without reading them: a client
        /// that never reads still learns that the server took its request.
        public func waitForBytes(within bound: Duration = .seconds(20)) async -> Bool {
            let deadline = ContinuousClock.now + bound
            return await RawHTTP.onThread {
                while ContinuousClock.now < deadline {
                    var poller = pollfd(fd: self.fd, events: Int16(POLLIN), revents: 0)
                    if poll(&poller, 1, 100) > 0 { return true }
                }
                return false
            }
        }

        /// One read of at most `count` bytes, waiting up to `bound` for some: empty once the server has closed the
        /// connection (or nothing came).
        public func receive(upTo count: Int, within bound: Duration = .seconds(20)) async -> Data {
            let deadline = ContinuousClock.now + bound
            return await RawHTTP.onThread {
                var chunk = [UInt8](repeating: 0, count: count)
                while ContinuousClock.now < deadline {
                    var poller = pollfd(fd: self.fd, events: Int16(POLLIN), revents: 0)
                    guard poll(&poller, 1, 100) > 0 else { continue }
                    let received = recv(self.fd, &chunk, count, 0)
                    return received > 0 ? Data(chunk[0..<received]) : Data()
                }
                return Data()
            }
        }

        /// Reads one whole answer with a Content-Length body, leaving the connection open.
        public func readAnswer(within bound: Duration = .seconds(20)) async throws -> Answer {
            let deadline = ContinuousClock.now + bound
            return try await RawHTTP.onThread {
                var received = Data()
                var chunk = [UInt8](repeating: 0, count: 65_536)
                while ContinuousClock.now < deadline {
                    if let answer = RawHTTP.parse(received, requireWholeBody: true) { return answer }
                    var poller = pollfd(fd: self.fd, events: Int16(POLLIN), revents: 0)
                    guard poll(&poller, 1, 100) > 0 else { continue }
                    let count = recv(self.fd, &chunk, chunk.count, 0)
                    if count <= 0 { break }
                    received.append(contentsOf: chunk[0..<count])
                }
                if let answer = RawHTTP.parse(received, requireWholeBody: true) { return answer }
                throw TestFailure("no whole answer: \(String(decoding: received, as: UTF8.self))")
            }
        }
    }

    public static func onThread<T: Sendable>(_ work: @escaping @Sendable () throws -> T) async throws -> T {
        try await withCheckedThrowingContinuation { continuation in
            Thread { continuation.resume(with: Result { try work() }) }.start()
        }
    }

    public static func onThread<T: Sendable>(_ work: @escaping @Sendable () -> T) async -> T {
        await withCheckedContinuation { continuation in
            Thread { continuation.resume(returning: work()) }.start()
        }
    }

    public static func connectedSocket(port: Int, receiveBuffer: Int? = nil) throws -> Int32 {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw TestFailure("socket failed") }
        if var size = receiveBuffer.map(Int32.init) {
            // Before connecting: the window offered in the handshake follows it.
            setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &size, socklen_t(MemoryLayout<Int32>.size))
        }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard connected == 0 else {
            close(fd)
            throw TestFailure("connect failed")
        }
        return fd
    }

    /// An answer in `received`: the head, and the body up to Content-Length (or all that came).
    public static func parse(_ received: Data, requireWholeBody: Bool = false) -> Answer? {
        guard let split = received.range(of: Data("\r\n\r\n".utf8)) else { return nil }
        let head = String(decoding: received[..<split.lowerBound], as: UTF8.self)
        let status = head.split(separator: " ").dropFirst().first.flatMap { Int($0) } ?? 0
        var answer = Answer(status: status, head: head, body: received[split.upperBound...])
        if let length = answer.header("Content-Length").flatMap({ Int($0) }) {
            guard answer.body.count >= length || !requireWholeBody else { return nil }
            answer.body = answer.body.prefix(length)
        } else if requireWholeBody {
            return nil
        }
        return answer
    }
}

extension RawHTTP {
    /// One HTTP/1.1 request as bytes, the target exactly as given (nothing normalises it on the way).
    /// `host: nil` sends no Host header at all; a POST gets `{}` as a JSON body unless `body` says otherwise.
    public static func request(
        _ method: String, _ target: String, host: String? = "127.0.0.1", headers: [(String, String)] = [],
        body: String? = nil
    ) -> Data {
        var text = "\(method) \(target) HTTP/1.1\r\n"
        if let host { text += "Host: \(host)\r\n" }
        for (name, value) in headers { text += "\(name): \(value)\r\n" }
        let payload = body ?? (method == "POST" ? "{}" : nil)
        if let payload {
            text += "Content-Type: application/json\r\nContent-Length: \(payload.utf8.count)\r\n"
        }
        text += "Connection: close\r\n\r\n" + (payload ?? "")
        return Data(text.utf8)
    }

    /// The answer's JSON error, if it has one.
    public static func error(of answer: Answer) -> APIErrorBody? {
        try? APIJSON.makeContractDecoder().decode(APIErrorBody.self, from: answer.body)
    }
}
