import AccessAPI
import AccessBackendTesting
import Foundation
import Testing

@testable import AccessBackend

/// Seed 002's email & password: register, open the link, log in; seed 003's progressive wait for
/// repeated failures; nothing that tells whether an address has an account.
@Suite struct PasswordLoginTests {
    private func login(_ backend: TestBackend, _ email: String, _ password: String) async throws -> Reply {
        try await backend.post(
            "/auth/login", PasswordLoginBody(email: email, password: password, device: SignInCodeTests.device))
    }

    private func register(_ backend: TestBackend, _ email: String, _ password: String) async throws -> Reply {
        try await backend.post(
            "/auth/register", RegisterBody(email: email, password: password, device: SignInCodeTests.device))
    }

    private func confirm(_ backend: TestBackend, _ token: String) async throws -> Reply {
        try await backend.post("/auth/register/confirm", EmailLinkConfirmBody(token: token))
    }

    private func expectLocked(_ reply: Reply, retryAfter: Int) {
        #expect(reply.status == 429)
        #expect(reply.error?.limit == "login_lockout")
        #expect(reply.error?.retryAfter == retryAfter)
        #expect(reply.headers["Retry-After"].first == String(retryAfter))
    }

    @Test func registerThenOpenTheLinkThenLogIn() async throws {
        try await TestBackend.with(scenario: "new-user") { backend in
            let registered = try await register(backend, "fresh@mail.com", "violet-harbor-77")
            #expect(registered.status == 201)
            let unverified = try await login(backend, "fresh@mail.com", "violet-harbor-77")
            #expect(unverified.status == 403)
            #expect(unverified.error?.code == "email_unverified")
            let mail = try #require(try await backend.outbox().last)
            #expect(mail.kind == "email_verify_link" && mail.purpose == "register" && mail.to == "fresh@mail.com")
            #expect(mail.link?.contains("/confirm-account?token=") == true)
            let token = try #require(mail.token)
            let confirmed: RegistrationConfirmed = try await confirm(backend, token).decode()
            #expect(confirmed.email == "fresh@mail.com")
            #expect(try await backend.outbox().last?.status == .used)
            #expect(try await confirm(backend, token).status == 410)
            let signedIn: SignedIn = try await login(backend, "fresh@mail.com", "violet-harbor-77").decode()
            #expect(signedIn.authMethods.hasPassword)
            #expect(signedIn.authMethods.email == "fresh@mail.com")
        }
    }

    @Test func registrationRefusalsKeepTheirCodes() async throws {
        try await TestBackend.with(scenario: "returning-user") { backend in
            let taken = try await register(backend, "JDOE@mail.com", "violet-harbor-77")
            #expect(taken.status == 409)
            #expect(taken.error?.code == "email_taken")
            #expect(taken.error?.message == "An account with this email already exists")
            let weak = try await register(backend, "fresh@mail.com", "12345678")
            #expect(weak.status == 422)
            #expect(weak.error?.code == "password_invalid")
            #expect(weak.error?.errors?.isEmpty == false)
            let invalid = try await register(backend, "fresh@", "violet-harbor-77")
            #expect(invalid.status == 422)
            #expect(invalid.error?.code == "invalid_email")
        }
    }

    @Test func theRegistrationLinkLivesADay() async throws {
        try await TestBackend.with(scenario: "unverified-email") { backend in
            let token = try #require(try await backend.outbox().last?.token)
            _ = try await backend.advance(seconds: 86_400)
            #expect(try await confirm(backend, token).status == 410)
            #expect(try await confirm(backend, "lk_nobody").status == 404)
        }
    }

    @Test func resendAnswersTheSameWhetherOrNotTheAddressWaits() async throws {
        try await TestBackend.with(scenario: "unverified-email") { backend in
            let old = try #require(try await backend.outbox().last?.token)
            _ = try await backend.advance(seconds: 30)
            let waiting = try await backend.post("/auth/register/resend", EmailOnlyBody(email: "pending@mail.com"))
            let nobody = try await backend.post("/auth/register/resend", EmailOnlyBody(email: "nobody@mail.com"))
            #expect(waiting.status == 202 && nobody.status == 202)
            #expect(waiting.data == nobody.data)
            let links = try await backend.outbox().filter { $0.purpose == "register" }
            #expect(links.map(\.to) == ["pending@mail.com", "pending@mail.com"])
            // The earlier link stopped working; the new one works.
            #expect(try await confirm(backend, old).status == 410)
            #expect(try await confirm(backend, try #require(links.last?.token)).status == 200)
            // Both addresses now wait 30 s alike.
            let again = try await backend.post("/auth/register/resend", EmailOnlyBody(email: "nobody@mail.com"))
            #expect(again.status == 429)
        }
    }

    @Test func aWrongPasswordAndAnUnknownAddressAnswerAlike() async throws {
        try await TestBackend.with(scenario: "returning-user") { backend in
            let wrong = try await login(backend, "jdoe@mail.com", "not-the-password")
            let unknown = try await login(backend, "nobody@mail.com", "not-the-password")
            #expect(wrong.status == 401 && unknown.status == 401)
            #expect(wrong.data == unknown.data)
            #expect(wrong.error?.message == "Invalid email or password")
            let signedIn: SignedIn = try await login(backend, "JDoe@mail.com", "correct-horse-42").decode()
            #expect(signedIn.session.userId == "usr_athlete")
        }
    }

    /// The third failure in a row waits 30 s, then 60, 120, … up to 15 min; a success starts over.
    @Test func failuresWaitLongerEachTime() async throws {
        try await TestBackend.with(scenario: "returning-user") { backend in
            #expect(try await login(backend, "jdoe@mail.com", "wrong-1").status == 401)
            #expect(try await login(backend, "jdoe@mail.com", "wrong-2").status == 401)
            expectLocked(try await login(backend, "jdoe@mail.com", "wrong-3"), retryAfter: 30)
            // Locked: even the right password waits, and the attempt does not count.
            _ = try await backend.advance(seconds: 29)
            expectLocked(try await login(backend, "jdoe@mail.com", "correct-horse-42"), retryAfter: 1)
            _ = try await backend.advance(seconds: 1)
            expectLocked(try await login(backend, "jdoe@mail.com", "wrong-4"), retryAfter: 60)
            _ = try await backend.advance(seconds: 59)
            expectLocked(try await login(backend, "jdoe@mail.com", "wrong-5"), retryAfter: 1)
            _ = try await backend.advance(seconds: 1)
            expectLocked(try await login(backend, "jdoe@mail.com", "wrong-5"), retryAfter: 120)
            _ = try await backend.advance(seconds: 120)
            #expect(try await login(backend, "jdoe@mail.com", "correct-horse-42").status == 200)
            // The count started over.
            #expect(try await login(backend, "jdoe@mail.com", "wrong-1").status == 401)
            #expect(try await login(backend, "jdoe@mail.com", "wrong-2").status == 401)
            expectLocked(try await login(backend, "jdoe@mail.com", "wrong-3"), retryAfter: 30)
        }
    }

    /// Seed 003's security events: a lockout started from Log in is mailed to the account's address; a
    /// guessed address with no account gets nothing.
    @Test func aLockoutIsNoticedToTheAccountOnly() async throws {
        try await TestBackend.with(scenario: "returning-user") { backend in
            for attempt in 1...2 {
                #expect(try await login(backend, "JDoe@mail.com", "wrong-\(attempt)").status == 401)
                #expect(try await login(backend, "nobody@mail.com", "wrong-\(attempt)").status == 401)
            }
            #expect(try await backend.outbox().filter { $0.kind == "lockout_notice" }.isEmpty)
            expectLocked(try await login(backend, "JDoe@mail.com", "wrong-3"), retryAfter: 30)
            expectLocked(try await login(backend, "nobody@mail.com", "wrong-3"), retryAfter: 30)
            let notices = try await backend.outbox().filter { $0.kind == "lockout_notice" }
            #expect(notices.map(\.to) == ["jdoe@mail.com"])
        }
    }

    @Test func theWaitStopsGrowingAtFifteenMinutes() {
        let locks = (1...10).map { LoginThrottleService.lock(afterFailures: $0) }
        #expect(locks == [nil, nil, 30, 60, 120, 240, 480, 900, 900, 900])
    }

    @Test func anUnknownAddressIsLockedTheSameWay() async throws {
        try await TestBackend.with(scenario: "returning-user") { backend in
            for _ in 0..<2 { #expect(try await login(backend, "nobody@mail.com", "x-wrong-x").status == 401) }
            expectLocked(try await login(backend, "nobody@mail.com", "x-wrong-x"), retryAfter: 30)
            // Another address is not affected.
            #expect(try await login(backend, "jdoe@mail.com", "correct-horse-42").status == 200)
        }
    }

    @Test func theLockedOutScenarioStartsLocked() async throws {
        try await TestBackend.with(scenario: "locked-out") { backend in
            expectLocked(try await login(backend, "jdoe@mail.com", "correct-horse-42"), retryAfter: 30)
            _ = try await backend.advance(seconds: 30)
            #expect(try await login(backend, "jdoe@mail.com", "correct-horse-42").status == 200)
        }
    }

    @Test func aFailureStreakIsForgottenAfterADay() async throws {
        try await TestBackend.with(scenario: "returning-user") { backend in
            #expect(try await login(backend, "jdoe@mail.com", "wrong-1").status == 401)
            #expect(try await login(backend, "jdoe@mail.com", "wrong-2").status == 401)
            _ = try await backend.advance(seconds: 86_399)
            expectLocked(try await login(backend, "jdoe@mail.com", "wrong-3"), retryAfter: 30)
            _ = try await backend.advance(seconds: 86_400)
            #expect(try await login(backend, "jdoe@mail.com", "wrong-4").status == 401)
        }
    }
}
