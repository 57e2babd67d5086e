import AccessAPI
import AccessBackendTesting
import Foundation
import Testing

/// "Forgot password?" (issue 28 item 25) over real HTTP: a one-shot 30-minute link to the account's email,
/// the same answer and the same limits for every address, the password rules, every session signed out
/// and a notice to the address.
@Suite struct PasswordResetTests {
    static let email = "jdoe@mail.com"
    static let strong = "battery-staple-77"

    static func request(_ backend: TestBackend, _ email: String = email) async throws -> Reply {
        try await backend.post("/auth/password/reset", PasswordResetBody(email: email))
    }

    static func check(_ backend: TestBackend, _ token: String) async throws -> Reply {
        try await backend.post("/auth/password/reset/check", EmailLinkConfirmBody(token: token))
    }

    static func complete(_ backend: TestBackend, _ token: String, _ password: String = strong) async throws -> Reply {
        try await backend.post(
            "/auth/password/reset/complete", PasswordResetCompleteBody(token: token, newPassword: password))
    }

    static func lastLinkToken(_ backend: TestBackend) async throws -> String {
        let link = try await backend.outbox().last { $0.kind == "password_reset_link" }
        return try #require(link?.token)
    }

    private func login(_ backend: TestBackend, _ password: String) async throws -> Reply {
        try await backend.post(
            "/auth/login", PasswordLoginBody(email: Self.email, password: password, device: SignInCodeTests.device))
    }

    private func journalRules(_ backend: TestBackend, path: String) async throws -> [String] {
        let journal: [JournalEntry] = try await backend.get("/_admin/journal").decode()
        return journal.filter { $0.path == path }.sorted { $0.id < $1.id }.map(\.rule)
    }

    // MARK: asking for a link

    @Test func aKnownAndAnUnknownAddressGetTheSameAnswerButOnlyTheKnownOneALink() async throws {
        try await TestBackend.with(scenario: "returning-user") { (backend: TestBackend) async throws in
            let known = try await Self.request(backend, "JDoe@mail.com")
            let unknown = try await Self.request(backend, "nobody@mail.com")
            #expect(known.status == 202 && unknown.status == 202)
            let knownBody: PasswordResetRequested = try known.decode()
            let unknownBody: PasswordResetRequested = try unknown.decode()
            #expect(knownBody.resendAfter == unknownBody.resendAfter)
            // The address as typed: the account's own spelling would say there is one.
            #expect(knownBody.email == "JDoe@mail.com" && unknownBody.email == "nobody@mail.com")
            let knownKeys = (try JSONSerialization.jsonObject(with: known.data) as? [String: Any])?.keys
            let unknownKeys = (try JSONSerialization.jsonObject(with: unknown.data) as? [String: Any])?.keys
            #expect(knownKeys.map(Set.init) == ["email", "resend_after"])
            #expect(unknownKeys.map(Set.init) == ["email", "resend_after"])
            let outbox = try await backend.outbox()
            let links = outbox.filter { $0.kind == "password_reset_link" }
            #expect(links.count == 1)
            #expect(links.first?.to == Self.email)
            #expect(links.first?.purpose == "password_reset")
            #expect(links.first?.link?.contains("/reset-password?token=") == true)
            #expect(links.first?.status == .live)
            #expect(!outbox.contains { $0.to.contains("nobody") })
            #expect(
                try await journalRules(backend, path: "/auth/password/reset")
                    == ["password.reset_answered", "password.reset_answered"])
        }
    }

    @Test func anInvalidAddressIs422() async throws {
        try await TestBackend.with(scenario: "returning-user") { (backend: TestBackend) async throws in
            let invalid = try await Self.request(backend, "jdoe@")
            #expect(invalid.status == 422)
            #expect(invalid.error?.code == "invalid_email")
        }
    }

    /// The shared send limits, for an account's address and a guessed one alike: a 429 says nothing either.
    @Test func resetEmailsWaitThirtySecondsForKnownAndUnknownAddressesAlike() async throws {
        try await TestBackend.with(scenario: "returning-user") { (backend: TestBackend) async throws in
            for address in [Self.email, "nobody@mail.com"] {
                #expect(try await Self.request(backend, address).status == 202)
            }
            _ = try await backend.advance(seconds: 29)
            for address in [Self.email, "nobody@mail.com"] {
                let refused = try await Self.request(backend, address)
                #expect(refused.status == 429)
                #expect(refused.error?.limit == "cooldown")
                #expect(refused.error?.retryAfter == 1)
                #expect(refused.headers["Retry-After"].first == "1")
            }
            _ = try await backend.advance(seconds: 1)
            for address in [Self.email, "nobody@mail.com"] {
                #expect(try await Self.request(backend, address).status == 202)
            }
            let rules = try await journalRules(backend, path: "/auth/password/reset")
            #expect(rules.filter { $0 == "rate_limit.cooldown" }.count == 2)
        }
    }

    @Test func atMostFiveResetEmailsADayForKnownAndUnknownAddressesAlike() async throws {
        try await TestBackend.with(scenario: "returning-user") { (backend: TestBackend) async throws in
            for _ in 0..<5 {
                for address in [Self.email, "nobody@mail.com"] {
                    #expect(try await Self.request(backend, address).status == 202)
                }
                _ = try await backend.advance(seconds: 30)
            }
            for address in [Self.email, "nobody@mail.com"] {
                let refused = try await Self.request(backend, address)
                #expect(refused.status == 429)
                #expect(refused.error?.limit == "daily_cap")
                #expect(refused.error?.retryAfter == 24 * 60 * 60 - 150)
            }
            _ = try await backend.advance(seconds: 24 * 60 * 60 - 150)
            #expect(try await Self.request(backend).status == 202)
            let links = try await backend.outbox().filter { $0.kind == "password_reset_link" }
            #expect(links.count == 6)
        }
    }

    /// An account that signs in by emailed code has no password to reset: nothing is sent, and it is not said.
    @Test func anAccountWithoutAPasswordGetsNoLinkAndTheSameAnswer() async throws {
        try await TestBackend.with(scenario: "new-user") { (backend: TestBackend) async throws in
            let address = "code.only@mail.com"
            let challenge: SignInChallenge = try await SignInCodeTests.start(backend, email: address).decode()
            let code = try await backend.lastCode(to: address)
            #expect(try await SignInCodeTests.verify(backend, challenge.challengeId, code).status == 200)
            _ = try await backend.advance(seconds: 30)
            let reply = try await Self.request(backend, address)
            #expect(reply.status == 202)
            #expect(try await backend.outbox().allSatisfy { $0.kind != "password_reset_link" })
        }
    }

    // MARK: the link

    /// Both sides of the 30 minutes, on the backend's moved clock.
    @Test func theLinkWorksForThirtyMinutesAndNotASecondMore() async throws {
        try await TestBackend.with(scenario: "returning-user") { (backend: TestBackend) async throws in
            _ = try await Self.request(backend)
            let first = try await Self.lastLinkToken(backend)
            _ = try await backend.advance(seconds: 30 * 60 - 1)
            let checked: PasswordResetLink = try await Self.check(backend, first).decode()
            #expect(checked.email == Self.email)
            #expect(try await Self.complete(backend, first).status == 200)

            _ = try await Self.request(backend)
            let second = try await Self.lastLinkToken(backend)
            _ = try await backend.advance(seconds: 30 * 60)
            let checkedLate = try await Self.check(backend, second)
            let completedLate = try await Self.complete(backend, second, "violet-harbor-88")
            for reply in [checkedLate, completedLate] {
                #expect(reply.status == 410)
                #expect(reply.error?.code == "link_expired")
            }
            // The password is the first reset's, not the second's.
            #expect(try await login(backend, Self.strong).status == 200)
        }
    }

    @Test func theLinkWorksOnce() async throws {
        try await TestBackend.with(scenario: "returning-user") { (backend: TestBackend) async throws in
            _ = try await Self.request(backend)
            let token = try await Self.lastLinkToken(backend)
            let done: PasswordResetDone = try await Self.complete(backend, token).decode()
            #expect(done.email == Self.email)
            let again = try await Self.complete(backend, token, "violet-harbor-88")
            #expect(again.status == 410)
            #expect(again.error?.code == "link_expired")
            #expect(try await Self.check(backend, token).status == 410)
            let info: LinkInfo = try await backend.post("/auth/links/inspect", EmailLinkConfirmBody(token: token))
                .decode()
            #expect(info.kind.known == .passwordReset && info.state.known == .used)
            #expect(try await backend.outbox().last { $0.kind == "password_reset_link" }?.status == .used)
            #expect(try await journalRules(backend, path: "/auth/password/reset/complete").first == "password.reset")
        }
    }

    @Test func aNewerLinkSupersedesTheOlderOne() async throws {
        try await TestBackend.with(scenario: "returning-user") { (backend: TestBackend) async throws in
            _ = try await Self.request(backend)
            let older = try await Self.lastLinkToken(backend)
            _ = try await backend.advance(seconds: 30)
            _ = try await Self.request(backend)
            let newer = try await Self.lastLinkToken(backend)
            let refused = try await Self.complete(backend, older)
            #expect(refused.status == 410)
            #expect(refused.error?.code == "link_superseded")
            let info: LinkInfo = try await backend.post("/auth/links/inspect", EmailLinkConfirmBody(token: older))
                .decode()
            #expect(info.state.known == .superseded)
            #expect(try await Self.complete(backend, newer).status == 200)
        }
    }

    @Test func aTokenNeverIssuedIs404() async throws {
        try await TestBackend.with(scenario: "returning-user") { (backend: TestBackend) async throws in
            for reply in [try await Self.check(backend, "pr_nothing"), try await Self.complete(backend, "pr_nothing")] {
                #expect(reply.status == 404)
                #expect(reply.error?.code == "link_not_found")
            }
        }
    }

    // MARK: the new password

    @Test func aWeakPasswordIs422WithItsRuleAndTheLinkStaysUsable() async throws {
        try await TestBackend.with(scenario: "returning-user") { (backend: TestBackend) async throws in
            _ = try await Self.request(backend)
            let token = try await Self.lastLinkToken(backend)
            let cases: [(String, [String])] = [
                ("abc", ["password_too_short"]), ("48151623", ["password_all_digits"]),
                ("password1", ["password_too_common"]), ("jdoe@mail.com", ["password_too_similar"]),
            ]
            for (password, rules) in cases {
                let reply = try await Self.complete(backend, token, password)
                #expect(reply.status == 422, "\(password)")
                #expect(reply.error?.code == "password_invalid")
                #expect(reply.error?.errors?.contains(rules[0]) == true, "\(password)")
            }
            let overlong = try await Self.complete(backend, token, String(repeating: "a", count: 129))
            #expect(overlong.status == 422)
            #expect(overlong.error?.code == "invalid_field")
            #expect(try await Self.check(backend, token).status == 200)
            #expect(try await login(backend, "correct-horse-42").status == 200)
            #expect(try await Self.complete(backend, token).status == 200)
        }
    }

    /// RULES.md `password.invalid`: "a new password also not the current one", on every road that sets one. A
    /// reset took the current password (issue 46): it succeeded, ended every session and mailed "password changed".
    @Test func theCurrentPasswordIs422AndNothingHappens() async throws {
        try await TestBackend.with { (backend: TestBackend) async throws in
            let session = try await backend.signIn()
            _ = try await Self.request(backend)
            let token = try await Self.lastLinkToken(backend)
            let notices = try await backend.outbox().filter { $0.kind == "password_changed_notice" }.count
            let same = try await Self.complete(backend, token, "correct-horse-42")
            #expect(same.status == 422)
            #expect(same.error?.code == "password_invalid")
            #expect(same.error?.errors == ["password_unchanged"])
            #expect(try await journalRules(backend, path: "/auth/password/reset/complete") == ["password.invalid"])
            // Nothing happened: the session lives, no notice went, the link still works.
            #expect(try await backend.get("/auth/me", token: session.accessToken).status == 200)
            #expect(try await backend.outbox().filter { $0.kind == "password_changed_notice" }.count == notices)
            #expect(try await Self.check(backend, token).status == 200)
            #expect(try await Self.complete(backend, token).status == 200)
        }
    }

    @Test func everySessionIsSignedOutAndTheAddressIsTold() async throws {
        try await TestBackend.with { (backend: TestBackend) async throws in
            let phone = try await backend.signIn()
            let laptop = try await backend.signIn()
            _ = try await Self.request(backend)
            let token = try await Self.lastLinkToken(backend)
            let done: PasswordResetDone = try await Self.complete(backend, token).decode()
            #expect(done.signedOutSessions >= 2)
            for session in [phone, laptop] {
                #expect(try await backend.get("/me/auth-methods", token: session.accessToken).status == 401)
                let refreshed = try await backend.post("/auth/refresh", RefreshBody(refreshToken: session.refreshToken))
                #expect(refreshed.status == 401)
                #expect(refreshed.error?.code == "refresh_invalid")
            }
            let notice = try #require(try await backend.outbox().last)
            #expect(notice.kind == "password_changed_notice")
            #expect(notice.purpose == "password_reset")
            #expect(notice.to == Self.email)
            #expect(notice.token == nil && notice.link == nil)
            #expect(try await login(backend, "correct-horse-42").status == 401)
            #expect(try await login(backend, Self.strong).status == 200)
        }
    }

    /// The person proved the address: a lock from someone guessing the old password does not keep them out.
    @Test func aResetLiftsTheLoginLockout() async throws {
        try await TestBackend.with(scenario: "returning-user") { (backend: TestBackend) async throws in
            for _ in 0..<3 { _ = try await login(backend, "wrong-guess-1") }
            #expect(try await login(backend, "correct-horse-42").status == 429)
            _ = try await Self.request(backend)
            #expect(try await Self.complete(backend, try await Self.lastLinkToken(backend)).status == 200)
            #expect(try await login(backend, Self.strong).status == 200)
        }
    }
}
