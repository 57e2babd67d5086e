import AccessCore
import HTTPTypes
import Hummingbird
import NIOCore

/// What every request must be before the gateway looks at what it asks for (issue 25): a path the router
/// reads exactly as written, a well-formed Host header — on a loopback bind, a loopback name in it — and no
/// web page's `Origin` on the admin API or on anything that can change state. An absolute-form target's
/// authority comes as the request's in place of Host (`ConnectionHandler.request`, issue 45 item 5).
struct RequestGate: Sendable {
    /// The server is bound to a loopback address: a Host naming anything else is a browser that resolved
    /// some other name to 127.0.0.1 (DNS rebinding), so its page could read codes and mint sessions.
    let loopbackOnly: Bool
    /// Which of the gate's rules the server keeps (`ReferenceBackend.Configuration.rulePolicy`).
    var policy = RulePolicy.everyRule

    /// `path`: the request's, as the caller already read it.
    func check(_ request: Request, path: String, isAdmin: Bool) throws {
        guard Self.isCanonical(path) || !policy.enforces(.httpPathNotCanonical) else {
            throw BackendError(
                .badRequest, .badRequest,
                "The path must be written plainly: no empty, '.' or '..' segments, no trailing slash and no "
                    + "percent-encoding.", rule: .httpPathNotCanonical)
        }
        guard let authority = request.head.authority, !authority.isEmpty,
            !request.headers.contains(Self.hostField) || !policy.enforces(.httpHostMissing)
        else {
            throw BackendError(
                .badRequest, .badRequest, "The request needs exactly one Host header.", rule: .httpHostMissing)
        }
        if loopbackOnly, !Self.isLoopbackAuthority(authority), policy.enforces(.httpHostNotAllowed) {
            throw BackendError(
                .forbidden, "host_not_allowed",
                "This server is bound to loopback and answers only to localhost, 127.0.0.1 or [::1] in the Host "
                    + "header.", rule: .httpHostNotAllowed)
        }
        // After the loopback check, which names what it answers: there `[127.0.0.1]` is the one left to refuse.
        guard Self.isWellFormedAuthority(authority) || !policy.enforces(.httpHostMissing) else {
            throw BackendError(
                .badRequest, .badRequest, "The Host must be a host name or address, with an optional port.",
                rule: .httpHostMissing)
        }
        if request.headers.contains(.origin), isAdmin || !Self.isSafe(request.method),
            policy.enforces(.httpOriginNotAllowed)
        {
            throw BackendError(
                .forbidden, "origin_not_allowed",
                "Requests from a web page (with an Origin header) may not use the admin API or change anything.",
                rule: .httpOriginNotAllowed)
        }
    }

    /// The router splits a path on "/" and skips empty segments, so `//_admin/x`, `/_admin//x` and
    /// `/_admin/x/` all reach `/_admin/x`. Admin access is decided on those segments, the ones the router
    /// matches, in any case (a case-insensitive router would match `/_ADMIN/x` too).
    static func isAdmin(path: String) -> Bool {
        // Over the UTF-8 bytes: splitting and lowercasing a `Substring` cost 3.5 K instructions of every request
        // (issue 34 item 2). ASCII case folding is all `lowercased()` could do here: no other character lowercases
        // to one of "_admin"'s.
        var path = path
        return path.withUTF8 { bytes in
            var start = 0
            while start < bytes.count, bytes[start] == UInt8(ascii: "/") { start += 1 }
            var end = start
            while end < bytes.count, bytes[end] != UInt8(ascii: "/") { end += 1 }
            guard end - start == adminSegment.count else { return false }
            for (offset, wanted) in adminSegment.enumerated() {
                let byte = bytes[start + offset]
                guard (byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z") ? byte + 32 : byte) == wanted else {
                    return false
                }
            }
            return true
        }
    }

    private static let adminSegment = Array("_admin".utf8)

    /// `/` or non-empty segments, none `.` or `..`, with no percent-encoding or backslash: the only form
    /// the contract's paths take (its one path parameter is an enum of plain words), so any other spelling
    /// is refused rather than left to whatever the router or a proxy makes of it.
    /// Over the UTF-8 bytes, as the router reads them: splitting into `Substring`s and comparing `Character`s
    /// was a tenth of a whole `GET /me/auth-methods` (issue 34 item 2).
    static func isCanonical(_ path: String) -> Bool {
        // Over one contiguous buffer: the UTF-8 view's iterator was 44 instructions a byte.
        var path = path
        return path.withUTF8 { bytes in
            guard bytes.first == UInt8(ascii: "/") else { return false }
            if bytes.count == 1 { return true }
            // The segment being read: its length, and whether it is dots only ("." and ".." are refused).
            var length = 0
            var onlyDots = true
            for byte in bytes[1...] {
                switch byte {
                case UInt8(ascii: "/"):
                    guard length > 0, !(onlyDots && length <= 2) else { return false }
                    length = 0
                    onlyDots = true
                case UInt8(ascii: "%"), UInt8(ascii: "\\"):
                    return false
                default:
                    length += 1
                    if byte != UInt8(ascii: ".") { onlyDots = false }
                }
            }
            return length > 0 && !(onlyDots && length <= 2)
        }
    }

    /// `localhost`, `127.0.0.1` (any 127/8 address), `[::1]`, each with or without `:port`.
    /// Over the UTF-8 bytes: `Substring`s and their comparisons were 1.5 K instructions of every request
    /// (issue 34 item 2).
    static func isLoopbackAuthority(_ authority: String) -> Bool {
        var authority = authority
        return authority.withUTF8 { bytes in
            let nameEnd: Int
            if bytes.first == UInt8(ascii: "[") {
                guard let close = bytes.firstIndex(of: UInt8(ascii: "]")) else { return false }
                nameEnd = close + 1
            } else {
                nameEnd = bytes.firstIndex(of: UInt8(ascii: ":")) ?? bytes.count
            }
            if nameEnd < bytes.count {
                let port = bytes[(nameEnd + 1)...]
                guard bytes[nameEnd] == UInt8(ascii: ":"), !port.isEmpty,
                    port.allSatisfy({ (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) })
                else {
                    return false
                }
            }
            let name = UnsafeBufferPointer(rebasing: bytes[..<nameEnd])
            // What every local client sends, spelled as the server's own URL spells it, without building a String.
            if Self.equal(name, Self.loopbackAddress) || Self.equal(name, Self.localhost) { return true }
            return ReferenceBackend.isLoopback(String(decoding: name, as: UTF8.self))
        }
    }

    /// `host[:port]` as RFC 3986 §3.2.2–3 writes it (issue 45 item 5: `Host: [127.0.0.1]` was answered): a name
    /// or IPv4 address of letters, digits and `-._~!$&'()*+,;=`, or an IPv6 address in brackets; then, if any,
    /// a colon and digits. Percent-escapes, allowed in a URI's name, have no place in a Host and are refused.
    static func isWellFormedAuthority(_ authority: String) -> Bool {
        var authority = authority
        return authority.withUTF8 { bytes in
            var end = 0
            if bytes.first == UInt8(ascii: "[") {
                guard let close = bytes.firstIndex(of: UInt8(ascii: "]")), close > 1,
                    case .v6? = try? SocketAddress(
                        ipAddress: String(decoding: bytes[1..<close], as: UTF8.self), port: 0)
                else { return false }
                end = close + 1
            } else {
                while end < bytes.count, bytes[end] != UInt8(ascii: ":") {
                    guard nameBytes[Int(bytes[end])] else { return false }
                    end += 1
                }
                guard end > 0 else { return false }
            }
            guard end < bytes.count else { return true }
            guard bytes[end] == UInt8(ascii: ":"), end + 1 < bytes.count else { return false }
            for byte in bytes[(end + 1)...] where !(UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) {
                return false
            }
            return true
        }
    }

    /// Which bytes may be part of a host name: RFC 3986's unreserved and sub-delims characters.
    private static let nameBytes: [Bool] = (0...255).map { (byte: UInt8) in
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
            UInt8(ascii: "0")...UInt8(ascii: "9"):
            return true
        default:
            return "-._~!$&'()*+,;=".utf8.contains(byte)
        }
    }

    private static func equal(_ bytes: UnsafeBufferPointer<UInt8>, _ wanted: [UInt8]) -> Bool {
        guard bytes.count == wanted.count else { return false }
        for index in 0..<bytes.count where bytes[index] != wanted[index] { return false }
        return true
    }

    private static let loopbackAddress = Array("127.0.0.1".utf8)
    private static let localhost = Array("localhost".utf8)

    /// Methods that change nothing here: a page may still read /health, never write.
    static func isSafe(_ method: HTTPRequest.Method) -> Bool { method == .get || method == .head }

    private static let hostField = HTTPField.Name("Host")!
}
