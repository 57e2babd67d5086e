import NIOCore
import Testing

@testable import AccessBackend

/// Issue 34 item 2: the peer's address is written without `inet_ntop` for IPv4, as NIO's `ipAddress` writes it.
@Suite struct PeerAddressTests {
    @Test func ipv4AsNIOWritesIt() throws {
        var addresses = ["0.0.0.0", "127.0.0.1", "10.0.0.255", "192.168.1.9", "255.255.255.255", "1.20.100.200"]
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<500 {
            addresses.append(
                (0..<4).map { _ in String(Int.random(in: 0...255, using: &generator)) }.joined(separator: "."))
        }
        for text in addresses {
            let address = try SocketAddress(ipAddress: text, port: 8080)
            #expect(PeerAddress.text(address) == address.ipAddress)
            #expect(PeerAddress.text(address) == text)
        }
    }

    @Test func otherAddressesAreNIOs() throws {
        for text in ["::1", "fe80::1", "2001:db8::ff00:42:8329"] {
            let address = try SocketAddress(ipAddress: text, port: 443)
            #expect(PeerAddress.text(address) == address.ipAddress)
        }
        #expect(PeerAddress.text(nil) == nil)
        let unix = try SocketAddress(unixDomainSocketPath: "/tmp/accessdeck-peer-test.sock")
        #expect(PeerAddress.text(unix) == nil)
    }
}
