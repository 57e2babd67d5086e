import Testing

@testable import AccessBackend

/// The gate's path and Host rules one spelling at a time (HostOriginTests and AdminPathTests send them over
/// HTTP): both sides of each, kept when the checks went over bytes for speed (issue 34 item 2).
@Suite struct RequestGateRulesTests {
    @Test func plainPathsPass() {
        for path in ["/", "/health", "/me/auth-methods", "/_admin/clock/advance", "/a/...", "/a/.b", "/a./b"] {
            #expect(RequestGate.isCanonical(path), "\(path)")
        }
    }

    @Test func otherSpellingsAreRefused() {
        for path in [
            "", "health", "//health", "/health/", "/me//auth-methods", "/./health", "/a/..", "/a/../b", "/.",
            "/..", "/%68ealth", "/a%2Fb", "/a\\b", "/me/auth-methods/",
        ] {
            #expect(!RequestGate.isCanonical(path), "\(path)")
        }
    }

    @Test func loopbackHostsPass() {
        for authority in [
            "127.0.0.1", "127.0.0.1:8080", "localhost", "localhost:1", "LOCALHOST:80", "127.1.2.3:9", "[::1]",
            "[::1]:8080", "[0:0:0:0:0:0:0:1]:80", "LocalHost",
        ] {
            #expect(RequestGate.isLoopbackAuthority(authority), "\(authority)")
        }
    }

    @Test func otherHostsAreRefused() {
        for authority in [
            "example.com", "example.com:80", "127.0.0.1:", "127.0.0.1:80a", "127.0.0.1:-1", "localhost:８０",
            "localhost.evil.com", "128.0.0.1", "[::2]", "[::1", "[::1]x", "127.0.0.1.example.com:80",
            "[::1]:", ":80", "", "localhost:", "127.0.0.1 ", "[]",
        ] {
            #expect(!RequestGate.isLoopbackAuthority(authority), "\(authority)")
        }
    }
}
