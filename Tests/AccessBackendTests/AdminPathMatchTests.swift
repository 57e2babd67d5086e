import Testing

@testable import AccessBackend

/// Issue 34 item 2: `RequestGate.isAdmin` reads the path's bytes; it must decide as the definition it replaced
/// did: the first non-empty segment, lowercased, is `_admin`.
@Suite struct AdminPathMatchTests {
    static func asDefined(_ path: String) -> Bool {
        path.split(separator: "/", maxSplits: 1, omittingEmptySubsequences: true).first?.lowercased() == "_admin"
    }

    static let paths = [
        "", "/", "//", "/_admin", "/_admin/", "/_admin/clock", "//_admin/clock", "///_admin", "/_ADMIN/x",
        "/_Admin", "_admin", "_admin/x", "/_admi", "/_adminx", "/x/_admin", "/me/auth-methods", "/health",
        "/_admın/x", "/_admİn", "/ _admin", "/_admin%2Fx", "/\u{212A}", "/_ADMIN", "/w/bob/_admin/clock", "/é/_admin",
    ]

    @Test(arguments: paths)
    func decidesAsTheDefinition(path: String) {
        #expect(RequestGate.isAdmin(path: path) == Self.asDefined(path))
    }
}
