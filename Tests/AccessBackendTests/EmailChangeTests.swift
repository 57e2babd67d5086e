import AccessAPI
import AccessBackendTesting
import Foundation
import Testing

/// Changing and adding the email (seeds 000/001) over real HTTP: nothing changes until the link is
/// opened, links are one-shot and live 30 minutes, the old address can undo the change.
@Suite struct EmailChangeTests {
    private func requestChange(
        _ backend: TestBackend, to email: String, token: String, reauth: String?
    ) async throws -> Reply {
        try await backend.post(
            "/auth/email/request-change", EmailChangeBody(email: email), token: token, reauth: reauth)
    }

    private func lastLink(_ backend: TestBackend, to address: String, kind: String) async throws -> String {
        guard let token = try await backend.outbox().last(where: { $0.to == address && $0.kind == kind })?.token else {
            throw TestFailure("no \(kind) to \(address)")
        }
        return token
    }

    private func methods(_ backend: TestBackend, token: String) async throws -> AuthMethods {
        try await backend.get("/me/auth-methods", token: token).decode()
    }

    @Test func theChangeAppliesOnlyWhenTheLinkIsOpenedAndTheOldAddressCanUndoIt() async throws {
        try await TestBackend.with { backend in
            let session = try await backend.signIn()
            let grant = try await backend.passwordGrant(token: session.accessToken)
            let sent = try await requestChange(
                backend, to: "new.email@gmail.com", token: session.accessToken, reauth: grant.reauthToken)
            #expect(sent.status == 202)
            #expect(try sent.decode(EmailLinkSent.self).sentTo == "new.email@gmail.com")
            #expect(try await methods(backend, token: session.accessToken).email == "jdoe@mail.com")

            let link = try await lastLink(backend, to: "new.email@gmail.com", kind: "email_verify_link")
            let verified: EmailVerified = try await backend.post(
                "/auth/email/verify", EmailLinkConfirmBody(token: link)
            ).decode()
            #expect(verified.authMethods.email == "new.email@gmail.com")
            #expect(try await methods(backend, token: verified.session.accessToken).email == "new.email@gmail.com")

            // The old address is told, with the way back; following it signs every session out.
            let revert = try await lastLink(backend, to: "jdoe@mail.com", kind: "email_changed_notice")
            let reverted: EmailReverted = try await backend.post(
                "/auth/email/revert", EmailLinkConfirmBody(token: revert)
            ).decode()
            #expect(reverted.email == "jdoe@mail.com")
            #expect(reverted.signedOutSessions == 2)
            #expect(try await backend.get("/me/auth-methods", token: session.accessToken).status == 401)
            #expect(try await backend.get("/me/auth-methods", token: verified.session.accessToken).status == 401)
            let fresh = try await backend.signIn()
            #expect(try await methods(backend, token: fresh.accessToken).email == "jdoe@mail.com")
        }
    }

    @Test func aLinkWorksOnceAndNotAfterThirtyMinutes() async throws {
        try await TestBackend.with { backend in
            let session = try await backend.signIn()
            let grant = try await backend.passwordGrant(token: session.accessToken)
            _ = try await requestChange(
                backend, to: "first@gmail.com", token: session.accessToken, reauth: grant.reauthToken)
            let first = try await lastLink(backend, to: "first@gmail.com", kind: "email_verify_link")
            #expect(try await backend.post("/auth/email/verify", EmailLinkConfirmBody(token: first)).status == 200)
            let reused = try await backend.post("/auth/email/verify", EmailLinkConfirmBody(token: first))
            #expect(reused.status == 410)
            #expect(reused.error?.code == "link_expired")

            _ = try await requestChange(
                backend, to: "second@gmail.com", token: session.accessToken, reauth: grant.reauthToken)
            let second = try await lastLink(backend, to: "second@gmail.com", kind: "email_verify_link")
            _ = try await backend.advance(seconds: 30 * 60)
            let late = try await backend.post("/auth/email/verify", EmailLinkConfirmBody(token: second))
            #expect(late.status == 410)
            let unknown = try await backend.post("/auth/email/verify", EmailLinkConfirmBody(token: "lk_nobody"))
            #expect(unknown.status == 404)
        }
    }

    @Test func anExpiredChangeCanBeResentAndTheNewLinkReplacesTheOld() async throws {
        try await TestBackend.with(scenario: "link-expired") { backend in
            let session = try await backend.signIn()
            let old = try await lastLink(backend, to: "new.email@gmail.com", kind: "email_verify_link")
            #expect(try await backend.post("/auth/email/verify", EmailLinkConfirmBody(token: old)).status == 410)
            let resent = try await backend.send(.POST, "/auth/email/resend", token: session.accessToken)
            #expect(resent.status == 202)
            let new = try await lastLink(backend, to: "new.email@gmail.com", kind: "email_verify_link")
            #expect(new != old)
            #expect(try await backend.post("/auth/email/verify", EmailLinkConfirmBody(token: new)).status == 200)
            // Nothing left to resend once the change is done.
            _ = try await backend.advance(seconds: 60)
            #expect(try await backend.send(.POST, "/auth/email/resend", token: session.accessToken).status == 404)
        }
    }

    @Test func changingNeedsVerificationAValidFreeNewAddress() async throws {
        try await TestBackend.with(scenario: "email-taken") { backend in
            let session = try await backend.signIn()
            let withoutGrant = try await requestChange(
                backend, to: "new.email@gmail.com", token: session.accessToken, reauth: nil)
            #expect(withoutGrant.status == 403)
            let grant = try await backend.passwordGrant(token: session.accessToken)
            let taken = try await requestChange(
                backend, to: "Taken@Mail.com", token: session.accessToken, reauth: grant.reauthToken)
            #expect(taken.status == 409)
            #expect(taken.error?.code == "email_taken")
            #expect(taken.error?.message == "This email is already in use by another account.")
            let invalid = try await requestChange(
                backend, to: "new.email@", token: session.accessToken, reauth: grant.reauthToken)
            #expect(invalid.status == 422)
            #expect(invalid.error?.code == "invalid_email")
            let same = try await requestChange(
                backend, to: "JDoe@mail.com", token: session.accessToken, reauth: grant.reauthToken)
            #expect(same.error?.code == "email_unchanged")
            #expect(try await backend.outbox().filter { $0.kind == "email_verify_link" }.isEmpty)
        }
    }

    @Test func availabilityNeverSaysWhoHoldsAnAddress() async throws {
        try await TestBackend.with(scenario: "email-taken") { backend in
            let token = try await backend.signIn().accessToken
            let taken: EmailAvailability = try await backend.get(
                "/auth/email-available?email=taken%40mail.com", token: token
            ).decode()
            #expect(taken.available == false)
            let free: EmailAvailability = try await backend.get(
                "/auth/email-available?email=free%40mail.com", token: token
            ).decode()
            #expect(free.available == true)
            let reply = try await backend.get("/auth/email-available?email=taken%40mail.com", token: token)
            #expect(!String(decoding: reply.data, as: UTF8.self).contains("usr_other"))
            #expect(try await backend.get("/auth/email-available?email=nope", token: token).status == 422)
        }
    }

    @Test func addingAnEmailAndPasswordChecksTheRulesThenAppliesBothOnTheLink() async throws {
        try await TestBackend.with(scenario: "no-email") { backend in
            let session = try await backend.signIn()
            let weak = try await backend.post(
                "/auth/email/add-with-password", AddEmailBody(email: "me@gmail.com", password: "12345678"),
                token: session.accessToken)
            #expect(weak.status == 422)
            #expect(weak.error?.code == "password_invalid")
            #expect(weak.error?.errors == ["password_too_common", "password_all_digits"])
            let similar = try await backend.post(
                "/auth/email/add-with-password", AddEmailBody(email: "jdoe1234@gmail.com", password: "jdoe12345"),
                token: session.accessToken)
            #expect(similar.error?.errors == ["password_too_similar"])
            // The address itself as the password (issue 25, defect 9).
            let itself = try await backend.post(
                "/auth/email/add-with-password",
                AddEmailBody(email: "me.here@gmail.com", password: "me.here@gmail.com"),
                token: session.accessToken)
            #expect(itself.status == 422)
            #expect(itself.error?.errors == ["password_too_similar"])

            let sent = try await backend.post(
                "/auth/email/add-with-password", AddEmailBody(email: "me@gmail.com", password: "correct-horse-42"),
                token: session.accessToken)
            #expect(sent.status == 202)
            #expect(try await methods(backend, token: session.accessToken).hasPassword == false)
            let link = try await lastLink(backend, to: "me@gmail.com", kind: "email_verify_link")
            let verified: EmailVerified = try await backend.post(
                "/auth/email/verify", EmailLinkConfirmBody(token: link)
            ).decode()
            #expect(verified.authMethods.email == "me@gmail.com")
            #expect(verified.authMethods.hasPassword)
            // The new password is the one stored: it now verifies "Verify it's you".
            _ = try await backend.passwordGrant(token: verified.session.accessToken, password: "correct-horse-42")
            let again = try await backend.post(
                "/auth/email/add-with-password", AddEmailBody(email: "other@gmail.com", password: "correct-horse-42"),
                token: verified.session.accessToken)
            #expect(again.error?.code == "email_already_set")
        }
    }
}
