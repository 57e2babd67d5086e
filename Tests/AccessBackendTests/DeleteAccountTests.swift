import AccessAPI
import AccessBackendTesting
import Foundation
import GRDB
import Testing

@testable import AccessBackend

/// `DELETE /me` (seeds 000/001): re-auth, blockers re-checked, every session ends, the purge runs 30 days
/// on when the clock gets there, and the phone and email are held for 7 days.
@Suite struct DeleteAccountTests {
    private static let day: TimeInterval = 24 * 3600

    /// "Fri, Jan 22, 08:00 UTC", written here by Foundation's formatter, not the backend's own.
    private static func utc(_ date: Date) -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.dateFormat = "EEE, MMM d, HH:mm 'UTC'"
        return formatter.string(from: date)
    }

    private func delete(_ backend: TestBackend, token: String, reauth: String?) async throws -> Reply {
        try await backend.send(.DELETE, "/me", token: token, reauth: reauth)
    }

    /// Deletes the scenario's user (password re-auth); returns their session and the answer.
    private func deleteUser(_ backend: TestBackend) async throws -> (SessionTokens, AccountDeleted) {
        let session = try await backend.signIn()
        let grant = try await backend.passwordGrant(token: session.accessToken)
        let reply = try await delete(backend, token: session.accessToken, reauth: grant.reauthToken)
        guard reply.status == 200 else { throw TestFailure("delete: \(String(decoding: reply.data, as: UTF8.self))") }
        return (session, try reply.decode())
    }

    /// A session for a user who is not the scenario's (the admin API signs in only that one).
    private func session(_ backend: TestBackend, for userId: String) async throws -> String {
        try await SessionService(store: backend.running.store, clock: backend.running.clock).issue(
            userId: userId, access: .full
        )
        .accessToken
    }

    /// A grant of the session `token` (a grant belongs to the session that earned it).
    private func reauthGrant(_ backend: TestBackend, for userId: String, token: String) async throws -> String {
        let store = backend.running.store
        let now = backend.running.clock.now()
        return try await store.pool.write { db in
            try ReauthService.issue(
                db, store: store, userId: userId, accessHash: store.digest(token), method: .phone, now: now
            ).reauthToken
        }
    }

    private func userExists(_ backend: TestBackend, _ id: String) async throws -> Bool {
        try await backend.running.store.pool.read { db in
            try Bool.fetchOne(db, sql: "SELECT EXISTS(SELECT 1 FROM users WHERE id = ?)", arguments: [id]) ?? false
        }
    }

    @Test func deletingNeedsReauth() async throws {
        try await TestBackend.with { backend in
            let token = try await backend.signIn().accessToken
            let reply = try await delete(backend, token: token, reauth: nil)
            #expect(reply.status == 403)
            #expect(reply.error?.code == "reauth_required")
            #expect(try await backend.get("/me/auth-methods", token: token).status == 200)
        }
    }

    @Test func aStandingBlockerIs409EvenAfterReauth() async throws {
        try await TestBackend.with(scenario: "coach-both") { backend in
            let token = try await backend.signIn().accessToken
            let grant = try await backend.passwordGrant(token: token)
            let reply = try await delete(backend, token: token, reauth: grant.reauthToken)
            #expect(reply.status == 409)
            #expect(reply.error?.code == "delete_blocked")
            #expect(
                reply.error?.message
                    == "Your account can't be deleted yet: cancel your upcoming sessions and withdraw your pending balance first."
            )
            #expect(try await backend.get("/me/auth-methods", token: token).status == 200)
        }
    }

    /// Issue 25, defect 7: the deleted account's Apple or Google account signed straight back up as a new
    /// account while its phone and email were held. The provider accounts are held alike, for sign-in and
    /// for connecting to another account.
    @Test func aDeletedAccountsAppleAndGoogleAreHeldForSevenDays() async throws {
        try await TestBackend.with { backend in
            func mint(_ provider: SocialProvider, _ subject: String? = nil) async throws -> ProviderToken {
                try await backend.post(
                    "/_admin/provider/\(provider.rawValue)/token", ProviderTokenBody(subject: subject)
                )
                .decode()
            }
            func signIn(_ provider: SocialProvider, _ subject: String) async throws -> Reply {
                let body = ProviderSignInBody(
                    provider: provider, idToken: try await mint(provider, subject).idToken,
                    device: SignInCodeTests.device)
                return try await backend.post("/auth/sign-in/provider", body)
            }
            // The scenario user's linked accounts, as the provider's sheet would give them.
            let apple = try await mint(.apple).subject
            let google = try await mint(.google).subject
            _ = try await deleteUser(backend)
            for (provider, subject) in [(SocialProvider.apple, apple), (.google, google)] {
                let reply = try await signIn(provider, subject)
                #expect(reply.status == 409, "\(provider)")
                #expect(reply.error?.code == "recently_deleted", "\(provider)")
            }
            // Nor can another account connect one of them meanwhile.
            let challenge: SignInChallenge = try await SignInCodeTests.start(backend, phone: "+995511200300").decode()
            let code = try await backend.lastCode(to: "+995511200300")
            let other: SignedIn = try await SignInCodeTests.verify(backend, challenge.challengeId, code).decode()
            let connect = try await backend.post(
                "/me/auth-methods/connect",
                ConnectBody(provider: .apple, idToken: try await mint(.apple, apple).idToken),
                token: other.session.accessToken)
            #expect(connect.status == 409)
            #expect(connect.error?.code == "recently_deleted")
            _ = try await backend.advance(seconds: 7 * Self.day - 1)
            #expect(try await signIn(.apple, apple).status == 409)
            _ = try await backend.advance(seconds: 1)
            let back: SignedIn = try await signIn(.google, google).decode()
            #expect(back.isNewUser)
        }
    }

    @Test func deletingSignsOutEverywhereAndSaysWhen() async throws {
        try await TestBackend.with { backend in
            let other = try await backend.signIn()
            let (session, deleted) = try await deleteUser(backend)
            let now = backend.running.clock.now()
            #expect(abs(deleted.deletedAt.timeIntervalSince(now)) < 1)
            #expect(deleted.purgeAt.timeIntervalSince(deleted.deletedAt) == 30 * Self.day)
            #expect(deleted.identityHeldUntil.timeIntervalSince(deleted.deletedAt) == 7 * Self.day)
            for token in [session.accessToken, other.accessToken] {
                let reply = try await backend.get("/me/auth-methods", token: token)
                #expect(reply.status == 401)
            }
            let refresh = try await backend.post("/auth/refresh", RefreshBody(refreshToken: other.refreshToken))
            #expect(refresh.status == 401)
            let admin = try await backend.send(.POST, "/_admin/session")
            #expect(admin.status == 409)
            #expect(admin.error?.code == "account_deleted")
        }
    }

    @Test func theEmailIsToldAndNothingElseIsSent() async throws {
        try await TestBackend.with { backend in
            _ = try await deleteUser(backend)
            let notices = try await backend.outbox().filter { $0.kind == "account_deleted_notice" }
            #expect(notices.map(\.to) == ["jdoe@mail.com"])
            #expect(notices.allSatisfy { $0.code == nil && $0.link == nil && $0.token == nil })
        }
    }

    @Test func thePurgeRunsWhenTheClockPassesIt() async throws {
        try await TestBackend.with { backend in
            let (_, deleted) = try await deleteUser(backend)
            let listed: [ScheduledPurge] = try await backend.get("/_admin/deletions").decode()
            #expect(listed.map(\.userId) == ["usr_athlete"])
            #expect(listed.first?.purged == false)
            #expect(listed.first?.purgeAt == deleted.purgeAt)
            #expect(try await userExists(backend, "usr_athlete"))

            let week = try await backend.advance(seconds: 7 * Self.day)
            #expect(week.events.map(\.kind).contains("identity_hold_released"))
            _ = try await backend.advance(seconds: 23 * Self.day - 1)
            #expect(try await userExists(backend, "usr_athlete"))
            let purge = try await backend.advance(seconds: 1)
            #expect(purge.events.contains { $0.kind == "account_purged" && $0.subject == "usr_athlete" })
            #expect(try await !userExists(backend, "usr_athlete"))
            let grants = try await backend.running.store.pool.read { db in
                try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM provider_grants") ?? -1
            }
            #expect(grants == 0)
            let after: [ScheduledPurge] = try await backend.get("/_admin/deletions").decode()
            #expect(after.first?.purged == true)
            #expect(try await backend.send(.POST, "/_admin/session").error?.code == "account_deleted")
        }
    }

    /// Issue 48 item 18: the refusal said "Try again later" with no date; it says when the hold ends, in words
    /// and as `held_until`, the day the delete's own answer named.
    @Test func theNumberIsHeldForSevenDays() async throws {
        try await TestBackend.with(scenario: "taken-number") { backend in
            let (_, deleted) = try await deleteUser(backend)
            let token = try await session(backend, for: "usr_other")
            let held = try await backend.requestOTP("+995511100000", .addPhone, token: token)
            #expect(held.status == 409)
            #expect(held.error?.code == "recently_deleted")
            #expect(held.error?.heldUntil == deleted.identityHeldUntil)
            #expect(
                held.error?.message
                    == "This number belonged to an account that was deleted less than 7 days ago. "
                    + "Try again from \(Self.utc(deleted.identityHeldUntil)) or use another number.")
            _ = try await backend.advance(seconds: 6 * Self.day)
            let later = try await session(backend, for: "usr_other")
            let stillHeld = try await backend.requestOTP("+995511100000", .addPhone, token: later)
            #expect(stillHeld.error?.heldUntil == deleted.identityHeldUntil)
            _ = try await backend.advance(seconds: Self.day - 1)
            let fresh = try await session(backend, for: "usr_other")
            #expect(try await backend.requestOTP("+995511100000", .addPhone, token: fresh).status == 409)
            _ = try await backend.advance(seconds: 1)
            #expect(try await backend.requestOTP("+995511100000", .addPhone, token: fresh).status == 202)
        }
    }

    @Test func theEmailIsHeldForSevenDaysWhateverItsCase() async throws {
        try await TestBackend.with(scenario: "taken-number") { backend in
            _ = try await deleteUser(backend)
            let token = try await session(backend, for: "usr_other")
            let held = try await backend.post(
                "/auth/email/request-change", EmailChangeBody(email: "JDoe@Mail.com"), token: token,
                reauth: try await reauthGrant(backend, for: "usr_other", token: token))
            #expect(held.status == 409)
            #expect(held.error?.code == "recently_deleted")
            #expect(held.error?.message.hasPrefix("This email belonged to an account that was deleted") == true)
            #expect(held.error?.heldUntil != nil)
            _ = try await backend.advance(seconds: 7 * Self.day)
            let fresh = try await session(backend, for: "usr_other")
            let allowed = try await backend.post(
                "/auth/email/request-change", EmailChangeBody(email: "jdoe@mail.com"), token: fresh,
                reauth: try await reauthGrant(backend, for: "usr_other", token: fresh))
            #expect(allowed.status == 202)
        }
    }

    @Test func theHoldKeepsNoAddress() async throws {
        try await TestBackend.with { backend in
            _ = try await deleteUser(backend)
            let dump = try await backend.running.store.pool.read { db in
                try Row.fetchAll(db, sql: "SELECT * FROM identity_holds").map(\.description).joined()
                    + Row.fetchAll(db, sql: "SELECT * FROM users").map(\.description).joined()
                    + Row.fetchAll(db, sql: "SELECT * FROM deletions").map(\.description).joined()
            }
            #expect(!dump.contains("jdoe") && !dump.contains("511100000"), "\(dump)")
            #expect(!dump.contains("apple_usr_athlete") && !dump.contains("google_usr_athlete"), "\(dump)")
            let holds = try await backend.running.store.pool.read { db in
                try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM identity_holds") ?? 0
            }
            // The phone, the email, Apple and Google.
            #expect(holds == 4)
        }
    }
}
