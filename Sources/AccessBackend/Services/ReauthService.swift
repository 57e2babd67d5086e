import AccessAPI
import AccessCore
import Foundation
import GRDB
import Hummingbird

/// "Verify it's you" (seed 000): a successful re-auth opens a 15-minute window, bound to the user,
/// proven by the `X-Reauth-Token` header on each sensitive call.
struct ReauthService: Sendable {
    static let window: TimeInterval = 15 * 60

    let store: Store
    let clock: BackendClock

    static func issue(
        _ db: Database, digest: TokenDigest, userId: String, method: ReauthMethod, now: Date
    ) throws -> ReauthGrant {
        let token = Secrets.token(prefix: "ra_")
        let grant = ReauthGrant(reauthToken: token, expiresAt: now.addingTimeInterval(window), method: method)
        try db.execute(
            sql: "INSERT INTO reauth_grants (token_hash, user_id, method, expires_at) VALUES (?, ?, ?, ?)",
            arguments: [digest(token), userId, method.rawValue, grant.expiresAt.unix])
        return grant
    }

    static func token(from request: Request) -> String? {
        let name = APIHeader.reauthToken.lowercased()
        return request.headers.first { $0.name.canonicalName == name }?.value
    }

    /// 403 unless a live grant for this user comes with the request, or the target of the action is the
    /// user's only sign-in method (seed 000: the session itself is the implicit auth then). A nil target
    /// (the password) is never a sign-in method of its own, so it always needs the grant. `user` must
    /// have been read in the same transaction (`AccountService.current`), or the "only method" answer
    /// can be stale by the time the caller writes.
    static func require(
        _ db: Database, digest: TokenDigest, token: String?, user: UserRecord, target: SignInMethod?, now: Date
    ) throws {
        if let target, user.signInMethods.isOnly(target) { return }
        guard let token else { throw BackendError.reauthRequired }
        let storedUser = try String.fetchOne(
            db, sql: "SELECT user_id FROM reauth_grants WHERE token_hash = ? AND expires_at > ?",
            arguments: [digest(token), now.unix])
        guard let storedUser, Secrets.constantTimeEquals(storedUser, user.id) else {
            throw BackendError.reauthRequired
        }
    }

    func byPassword(user: UserRecord, password: String) async throws -> ReauthGrant {
        let now = clock.now()
        // A failure must be committed, so it is returned, not thrown (a throw rolls back).
        let outcome: Result<ReauthGrant, BackendError> = try await store.pool.write { db in
            // The password checked is the one stored now, not the one read when the request came in.
            let user = try AccountService.current(db, id: user.id)
            guard let stored = user.passwordHash else {
                throw BackendError(
                    .unprocessableContent, "method_unavailable", "This account has no password.",
                    rule: "reauth.method_unavailable")
            }
            try RateLimitService.checkPasswordAttempts(db, userId: user.id, now: now)
            guard PasswordHasher.verify(password, stored: stored, legacySalt: user.passwordSalt) else {
                let remaining = try RateLimitService.recordPasswordFailure(db, userId: user.id, now: now)
                var error = BackendError(
                    .unauthorized, "password_incorrect", "Password is incorrect. Try again.",
                    rule: "reauth.password_incorrect")
                // The person is warned before the last try, not surprised by the lock after it.
                error.detail.attemptsRemaining = remaining
                return .failure(error)
            }
            if PasswordHasher.needsUpgrade(stored) {
                try PasswordService.upgrade(db, userId: user.id, password: password)
            }
            return .success(try Self.issue(db, digest: store.digest, userId: user.id, method: .password, now: now))
        }
        return try outcome.get()
    }
}
