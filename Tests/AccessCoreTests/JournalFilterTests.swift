import AccessCore
import Foundation
import Testing

/// The journal's filters as words (issue 51 item 1): one reading for the backend's query, F3's `/`, the
/// palette and tapes.
@Suite struct JournalFilterWordTests {
    static let rules: Set<String> = ["ok", "rate_limit.resend_window"]

    @Test func aStatusIsACodeOrAClass() {
        #expect(JournalFilter.Status("429") == .code(429))
        #expect(JournalFilter.Status("4XX") == .group(4))
        #expect(JournalFilter.Status("4xx")?.matches(499) == true)
        #expect(JournalFilter.Status("4xx")?.matches(500) == false)
        #expect(JournalFilter.Status("429")?.matches(428) == false)
        for wrong in ["", "42", "4290", "600", "099", "6xx", "0xx", "x4x", "abc"] {
            #expect(JournalFilter.Status(wrong) == nil, "\(wrong)")
        }
    }

    @Test func wordsWithANameAreFiltersAndTheRestAreLeft() throws {
        let (filter, rest) = try JournalFilter.parse(
            words: "status:429 Path:/auth/phone/* otp method:post", rules: Self.rules)
        #expect(filter == JournalFilter(path: "/auth/phone/*", method: "POST", status: .code(429)))
        #expect(rest == ["otp"])
        #expect(
            filter.queryItems.map { "\($0.name)=\($0.value)" } == ["path=/auth/phone/*", "method=POST", "status=429"])
    }

    @Test func aPathIsExactOrAPrefix() {
        let exact = JournalFilter(path: "/me/auth-methods")
        #expect(exact.matches(method: "GET", path: "/me/auth-methods", status: 200, rule: "ok", user: nil, at: nil))
        #expect(!exact.matches(method: "GET", path: "/me/auth-methods/x", status: 200, rule: "ok", user: nil, at: nil))
        let prefix = JournalFilter(path: "/me/*")
        #expect(prefix.matches(method: "GET", path: "/me/auth-methods", status: 200, rule: "ok", user: nil, at: nil))
        #expect(!prefix.matches(method: "GET", path: "/auth/me", status: 200, rule: "ok", user: nil, at: nil))
    }

    @Test func aCallWithoutAnAnswerPassesNoStatusFilterAndNoTimeFilter() {
        let status = JournalFilter(status: .group(5))
        #expect(!status.matches(method: "GET", path: "/", status: nil, rule: nil, user: nil, at: nil))
        let since = JournalFilter(since: Date(timeIntervalSince1970: 0))
        #expect(!since.matches(method: "GET", path: "/", status: 200, rule: nil, user: nil, at: nil))
        #expect(since.matches(method: "GET", path: "/", status: 200, rule: nil, user: nil, at: Date()))
    }

    @Test(arguments: [
        ("status:abc", "status: a code like 429 or a class like 4xx."),
        ("rule:otp.nope", "rule: no rule is named otp.nope (docs/RULES.md)."),
        ("path:auth", "path: starts with /, and may end in * for a prefix."),
        ("user:", "user: give a value."),
        ("since:yesterday", "since: a time like 2026-11-25T10:42:07Z (the backend's clock, UTC)."),
        ("method:G1", "method: a word like GET."),
    ])
    func aWordThatDoesNotReadSaysWhy(words: String, message: String) {
        #expect(throws: JournalFilter.Invalid(message)) { try JournalFilter.parse(words: words, rules: Self.rules) }
    }
}
