import AccessAPI
import AccessCore
import Foundation
import GRDB

/// Every password the backend keeps goes through here (issue 46 item 1): one judge of a new password, whatever
/// the road (register, add an email & password, onboarding's recovery email, change, reset), and one writer, which
/// those and the rehash on a successful login, re-auth or recovery use. Changing it (seed 000): "Verify it's you"
/// first, and every other session signed out; this one stays.
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

    /// The one judge of a new password (`password.invalid`): `PasswordRules` (shared with the app) against the
    /// address it goes with, and not the account's current password, `current` (nil: it has none). Checking the
    /// current one takes bcrypt's time: a caller that can judge outside its write lock does.
    static func refuseInvalid(_ newPassword: String, email: String, current: StoredPassword?) throws {
        try refuseOverlong(newPassword)
        var broken = PasswordRules.violations(newPassword, email: email).map(\.rawValue)
        if let current, PasswordHasher.verify(newPassword, stored: current.hash, legacySalt: current.salt) {
            broken.append(unchanged)
        }
        guard broken.isEmpty else { throw invalid(broken) }
    }

    /// The one writer: `hash` (`PasswordHasher.hash`) becomes the account's password. `changedAt`: when the person
    /// chose it; nil keeps the date it had (a rehash of the same password under the current scheme).
    static func set(_ db: Database, userId: String, hash: String, changedAt: Date?) throws {
        try db.execute(
            sql: """
                UPDATE users SET password_hash = ?, password_salt = NULL,
                    password_changed_at = COALESCE(?, password_changed_at)
                WHERE id = ?
                """,
            arguments: [hash, changedAt?.unix, userId])
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
            try Self.refuseInvalid(newPassword, email: email, current: user.storedPassword)
            try Self.set(db, userId: user.id, hash: newHash, changedAt: now)
            try EventLog.append(db, .init(kind: .passwordChanged, userId: user.id, rule: .passwordChanged), now: now)
            let ended =
                RulePolicy.current.enforces(.passwordChanged)
                ? try SessionService.revokeAll(
                    db, userId: user.id, keeping: reauth.accessHash, reason: .passwordChanged, now: now) : 0
            try OutboxService.send(
                db,
                .init(channel: .email, recipient: email, kind: .passwordChangedNotice, purpose: "password_change"),
                now: now)
            return PasswordChanged(passwordChangedAt: now, signedOutSessions: ended)
        }
    }

    /// Rehashes a password that verified under the old scheme; the change date stays what it was.
    static func upgrade(_ db: Database, userId: String, password: String) throws {
        try set(db, userId: userId, hash: PasswordHasher.hash(password), changedAt: nil)
    }
}

/// An account's password as stored: its hash, and the salt of the oldest scheme's (`PasswordHasher`).
struct StoredPassword: Equatable, Sendable {
    var hash: String
    var salt: String?
}

extension UserRecord {
    /// nil for an account without a password.
    var storedPassword: StoredPassword? { passwordHash.map { StoredPassword(hash: $0, salt: passwordSalt) } }
}
