import AccessAPI
import AccessBackendTesting
import Foundation
import Testing

/// `POST /auth/password/change` (seed 000) over real HTTP: after "Verify it's you", the rules and
/// "not the current one", and every other session signed out while this one stays.
@Suite struct PasswordChangeTests {
    private func change(
        _ backend: TestBackend, to password: String, token: String, reauth: String?
    ) async throws -> Reply {
        try await backend.post(
            "/auth/password/change", ChangePasswordBody(newPassword: password), token: token, reauth: reauth)
    }

    @Test func aNewPasswordSignsOutEveryOtherSessionAndKeepsThisOne() async throws {
        try await TestBackend.with { backend in
            let here = try await backend.signIn()
            let otherDevice = try await backend.signIn()
            // Not by password: a new password is never verified with the old one (ReauthTargetTests).
            let grant = try await backend.phoneGrant(token: here.accessToken)
            let reply = try await change(backend, to: "battery-staple-77", token: here.accessToken, reauth: grant)
            #expect(reply.status == 200)
            #expect(try reply.decode(PasswordChanged.self).signedOutSessions == 1)
            #expect(try await backend.get("/me/auth-methods", token: here.accessToken).status == 200)
            #expect(try await backend.get("/me/auth-methods", token: otherDevice.accessToken).status == 401)
            // The old password no longer verifies; the new one does.
            let old = try await backend.post(
                "/auth/reauth/password", PasswordReauthBody(password: "correct-horse-42"), token: here.accessToken)
            #expect(old.status == 401)
            _ = try await backend.passwordGrant(token: here.accessToken, password: "battery-staple-77")
            let notice = try await backend.outbox().last { $0.kind == "password_changed_notice" }
            #expect(notice?.to == "jdoe@mail.com")
        }
    }

    @Test func theRulesAndTheCurrentPasswordAreRefusedWithEachCode() async throws {
        try await TestBackend.with { backend in
            let session = try await backend.signIn()
            let grant = try await backend.phoneGrant(token: session.accessToken)
            let same = try await change(backend, to: "correct-horse-42", token: session.accessToken, reauth: grant)
            #expect(same.status == 422)
            #expect(same.error?.errors == ["password_unchanged"])
            #expect(same.error?.message == "Pick something different from your current password.")
            let short = try await change(backend, to: "abc", token: session.accessToken, reauth: grant)
            #expect(short.error?.errors?.first == "password_too_short")
            // (Similarity to the local part "jdoe" alone cannot fire at 8+ characters: Django's ratio tops
            // out at 2·4/12; the whole address can, see thePasswordCannotBeTheEmail.)
            let digits = try await change(
                backend, to: "48151623", token: session.accessToken, reauth: grant)
            #expect(digits.error?.errors == ["password_all_digits"])
            let overlong = try await change(
                backend, to: String(repeating: "a", count: 129), token: session.accessToken,
                reauth: grant)
            #expect(overlong.status == 422)
        }
    }

    /// Issue 25, defect 9: the address itself was taken, only its local part refused.
    @Test func thePasswordCannotBeTheEmail() async throws {
        try await TestBackend.with { backend in
            let session = try await backend.signIn()
            let grant = try await backend.phoneGrant(token: session.accessToken)
            for password in ["jdoe@mail.com", "JDoe@Mail.com", "mail.com.jdoe"] {
                let reply = try await change(backend, to: password, token: session.accessToken, reauth: grant)
                #expect(reply.status == 422, "\(password)")
                #expect(reply.error?.code == "password_invalid")
                #expect(reply.error?.errors == ["password_too_similar"], "\(password)")
            }
            _ = try await backend.passwordGrant(token: session.accessToken, password: "correct-horse-42")
        }
    }

    @Test func withoutVerificationThePasswordStays() async throws {
        try await TestBackend.with { backend in
            let session = try await backend.signIn()
            let reply = try await change(backend, to: "battery-staple-77", token: session.accessToken, reauth: nil)
            #expect(reply.status == 403)
            #expect(reply.error?.code == "reauth_required")
            _ = try await backend.passwordGrant(token: session.accessToken, password: "correct-horse-42")
        }
    }
}
