import AccessAPI
import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// Where `accessdeck open-link URL` hands a link to the app that is running: a Unix socket beside
/// the session file, in the same 0700 folder, so only this user can reach it. One line in (the
/// link), one line out (`ok`). The terminal's equivalent of tapping the link in a mail app.
enum LinkInbox {
    static let maxLength = 4096

    static func socketPath(environment: [String: String] = ProcessInfo.processInfo.environment) -> String {
        if let explicit = environment["ACCESSDECK_LINK_SOCKET"], !explicit.isEmpty { return explicit }
        return SessionStore.stateFolder(environment: environment)
            .appendingPathComponent("links.sock").path
    }

    /// Sends `link` to a running app; false when none listens.
    static func hand(_ link: String, to path: String) -> Bool {
        let socket = Socket.connect(to: path)
        guard socket >= 0 else { return false }
        defer { close(socket) }
        let line = Array((link.replacingOccurrences(of: "\n", with: " ") + "\n").utf8)
        guard line.withUnsafeBytes({ write(socket, $0.baseAddress, $0.count) }) == line.count else { return false }
        var reply = [UInt8](repeating: 0, count: 8)
        let count = read(socket, &reply, reply.count)
        return count > 0 && String(decoding: reply[0..<count], as: UTF8.self).hasPrefix("ok")
    }

    /// Listens while the app runs, calling `deliver` with each link from its own thread. nil when
    /// another app already listens there (the first one takes the links) or the socket cannot be made.
    final class Listener: @unchecked Sendable {
        private let descriptor: Int32
        private let path: String

        init?(path: String, deliver: @escaping @Sendable (String) -> Void) {
            // A live app owns the socket; a stale file from a killed one is taken over.
            if LinkInbox.hand("", to: path) { return nil }
            let folder = (path as NSString).deletingLastPathComponent
            try? FileManager.default.createDirectory(
                atPath: folder, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
            unlink(path)
            let descriptor = Socket.listen(at: path)
            guard descriptor >= 0 else { return nil }
            chmod(path, 0o600)
            self.descriptor = descriptor
            self.path = path
            Thread {
                while true {
                    let connection = accept(descriptor, nil, nil)
                    guard connection >= 0 else { return }
                    let link = Self.readLine(connection)
                    let reply = Array("ok\n".utf8)
                    _ = reply.withUnsafeBytes { write(connection, $0.baseAddress, $0.count) }
                    close(connection)
                    if let link, !link.isEmpty { deliver(link) }
                }
            }.start()
        }

        func stop() {
            shutdown(descriptor, Int32(SHUT_RDWR))
            close(descriptor)
            unlink(path)
        }

        private static func readLine(_ connection: Int32) -> String? {
            var bytes: [UInt8] = []
            var buffer = [UInt8](repeating: 0, count: 1024)
            while bytes.count <= LinkInbox.maxLength, !bytes.contains(UInt8(ascii: "\n")) {
                let count = read(connection, &buffer, buffer.count)
                guard count > 0 else { break }
                bytes += buffer[0..<count]
            }
            guard bytes.count <= LinkInbox.maxLength + 1 else { return nil }
            let line = bytes.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false).first ?? []
            return String(decoding: line, as: UTF8.self).trimmingCharacters(in: .whitespaces)
        }
    }
}

/// The few socket calls the inbox needs, with `sockaddr_un` filled in once.
private enum Socket {
    static func connect(to path: String) -> Int32 {
        withAddress(path) { descriptor, address, length in Glibc.connect(descriptor, address, length) == 0 }
    }

    static func listen(at path: String) -> Int32 {
        withAddress(path) { descriptor, address, length in
            bind(descriptor, address, length) == 0 && Glibc.listen(descriptor, 8) == 0
        }
    }

    private static func withAddress(
        _ path: String, _ body: (Int32, UnsafePointer<sockaddr>, socklen_t) -> Bool
    ) -> Int32 {
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        let bytes = Array(path.utf8)
        guard bytes.count < MemoryLayout.size(ofValue: address.sun_path) else { return -1 }
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            raw.copyBytes(from: bytes)
            raw[bytes.count] = 0
        }
        let descriptor = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        guard descriptor >= 0 else { return -1 }
        let ok = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                body(descriptor, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
            }
        }
        if ok { return descriptor }
        close(descriptor)
        return -1
    }
}
