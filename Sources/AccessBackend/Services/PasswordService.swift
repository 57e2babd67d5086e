import AccessAPI
import AccessCore
import Foundation
import GRDB

/// Setting a new password (seed 000): "Verify it's you" first, the rules of `PasswordRules` (shared with
/// the app) plus "not the current one", and every other session signed out; this one stays.
struct PasswordService: Sendable {
    let store: Store
    let clock: BackendClock

    /// 422 with each broken rule's code in `errors`; the message is the first rule's sentence.
    static func invalid(_ codes: [String]) -> BackendError {
        let first = codes.first.flatMap(PasswordRule.init(rawValue:))
        var error = BackendError(
            .unprocessableContent, "password_invalid",
            first?.message ?? "Pick something different from your current password.", rule: .passwordInvalid)
        error.detail.errors = codes
        return error
    }

    static let unchanged = "password_unchanged"

    /// Longer than any field allows: refused before bcrypt spends time on it.
    static func refuseOverlong(_ password: String) throws {
        guard password.count > PasswordRules.maximumLength else { return }
        throw BackendError(
            .unprocessableContent, "invalid_field",
            "Use at most \(PasswordRules.maximumLength) characters.", rule: .passwordTooLong)
    }

    /// Every session but the request's own (`reauth.accessHash`) ends.
    func change(user: UserRecord, newPassword: String, reauth: ReauthProof) async throws -> PasswordChanged {
        let now = clock.now()
        try Self.refuseOverlong(newPassword)
        // bcrypt takes tens of milliseconds: hashed before the write lock is taken.
        let newHash = PasswordHasher.hash(newPassword)
        return try await store.pool.write { db in
            let user = try AccountService.current(db, id: user.id)
            guard let email = user.email else {
                throw BackendError(
                    .unprocessableContent, "method_unavailable", "Add an email first: a password goes with it.",
                    rule: .passwordWithoutEmail)
            }
            try ReauthService.require(db, digest: store.digest, proof: reauth, user: user, target: .password, now: now)
            var broken = PasswordRules.violations(newPassword, email: email).map(\.rawValue)
            if let stored = user.passwordHash,
                PasswordHasher.verify(newPassword, stored: stored, legacySalt: user.passwordSalt)
            {
                broken.append(Self.unchanged)
            }
            guard broken.isEmpty else { throw Self.invalid(broken) }
            try db.execute(
                sql: "UPDATE users SET password_hash = ?, password_salt = NULL, password_changed_at = ? WHERE id = ?",
                arguments: [newHash, now.unix, user.id])
            let ended =
                RulePolicy.current.enforces(.passwordChanged)
                ? try SessionService.revokeAll(db, userId: user.id, keeping: reauth.accessHash) : 0
            try OutboxService.send(
                db,
                .init(channel: .email, recipient: email, kind: .passwordChangedNotice, purpose: "password_change"),
                now: now)
            return PasswordChanged(passwordChangedAt: now, signedOutSessions: ended)
        }
    }

    /// Rehashes a password that verified under the old scheme; the change date stays what it was.
    static func upgrade(_ db: Database, userId: String, password: String) throws {
        try db.execute(
            sql: "UPDATE users SET password_hash = ?, password_salt = NULL WHERE id = ?",
            arguments: [PasswordHasher.hash(password), userId])
    }
}
