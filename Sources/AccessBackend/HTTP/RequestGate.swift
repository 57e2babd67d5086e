import HTTPTypes
import Hummingbird

/// What every request must be before the gateway looks at what it asks for (issue 25): a path the router
/// reads exactly as written, a Host header — on a loopback bind, a loopback name in it — and no web
/// page's `Origin` on the admin API or on anything that can change state.
struct RequestGate: Sendable {
    /// The server is bound to a loopback address: a Host naming anything else is a browser that resolved
    /// some other name to 127.0.0.1 (DNS rebinding), so its page could read codes and mint sessions.
    let loopbackOnly: Bool

    func check(_ request: Request, isAdmin: Bool) throws {
        let path = request.uri.path
        guard Self.isCanonical(path) else {
            throw BackendError(
                .badRequest, .badRequest,
                "The path must be written plainly: no empty, '.' or '..' segments, no trailing slash and no "
                    + "percent-encoding.", rule: .httpPathNotCanonical)
        }
        guard let authority = request.head.authority, !authority.isEmpty,
            request.headers[values: Self.hostField].isEmpty
        else {
            throw BackendError(
                .badRequest, .badRequest, "The request needs exactly one Host header.", rule: .httpHostMissing)
        }
        if loopbackOnly, !Self.isLoopbackAuthority(authority) {
            throw BackendError(
                .forbidden, "host_not_allowed",
                "This server is bound to loopback and answers only to localhost, 127.0.0.1 or [::1] in the Host "
                    + "header.", rule: .httpHostNotAllowed)
        }
        if request.headers[.origin] != nil, isAdmin || !Self.isSafe(request.method) {
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
        guard let first = path.split(separator: "/", maxSplits: 1, omittingEmptySubsequences: true).first else {
            return false
        }
        return first.lowercased() == "_admin"
    }

    /// `/` or non-empty segments, none `.` or `..`, with no percent-encoding or backslash: the only form
    /// the contract's paths take (its one path parameter is an enum of plain words), so any other spelling
    /// is refused rather than left to whatever the router or a proxy makes of it.
    static func isCanonical(_ path: String) -> Bool {
        guard path.first == "/" else { return false }
        if path == "/" { return true }
        return path.dropFirst().split(separator: "/", omittingEmptySubsequences: false).allSatisfy { segment in
            !segment.isEmpty && segment != "." && segment != ".." && !segment.contains("%")
                && !segment.contains("\\")
        }
    }

    /// `localhost`, `127.0.0.1` (any 127/8 address), `[::1]`, each with or without `:port`.
    static func isLoopbackAuthority(_ authority: String) -> Bool {
        let name: Substring
        let rest: Substring
        if authority.hasPrefix("[") {
            guard let close = authority.firstIndex(of: "]") else { return false }
            name = authority[...close]
            rest = authority[authority.index(after: close)...]
        } else {
            let colon = authority.firstIndex(of: ":") ?? authority.endIndex
            name = authority[..<colon]
            rest = authority[colon...]
        }
        if !rest.isEmpty {
            let port = rest.dropFirst()
            guard rest.first == ":", !port.isEmpty, port.allSatisfy(\.isASCII), port.allSatisfy(\.isNumber) else {
                return false
            }
        }
        return ReferenceBackend.isLoopback(String(name))
    }

    /// Methods that change nothing here: a page may still read /health, never write.
    static func isSafe(_ method: HTTPRequest.Method) -> Bool { method == .get || method == .head }

    private static let hostField = HTTPField.Name("Host")!
}
