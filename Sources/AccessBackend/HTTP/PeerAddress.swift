import NIOCore

/// The peer's address as text, as `SocketAddress.ipAddress` writes it. An IPv4 address is written out here:
/// NIO's goes through glibc's `inet_ntop`, whose `sprintf` cost some 1.5 K instructions of every request
/// (issue 34 item 2). `PeerAddressTests` holds it to `ipAddress`.
enum PeerAddress {
    static func text(_ address: SocketAddress?) -> String? {
        guard case .v4(let v4) = address else { return address?.ipAddress }
        let value = UInt32(bigEndian: v4.address.sin_addr.s_addr)
        return String(unsafeUninitializedCapacity: 15) { out in
            var count = 0
            for shift in stride(from: 24, through: 0, by: -8) {
                if shift != 24 {
                    out[count] = UInt8(ascii: ".")
                    count += 1
                }
                let octet = Int((value >> UInt32(shift)) & 0xFF)
                if octet >= 100 {
                    out[count] = UInt8(ascii: "0") + UInt8(octet / 100)
                    count += 1
                }
                if octet >= 10 {
                    out[count] = UInt8(ascii: "0") + UInt8(octet / 10 % 10)
                    count += 1
                }
                out[count] = UInt8(ascii: "0") + UInt8(octet % 10)
                count += 1
            }
            return count
        }
    }
}
