import AccessAPI
import AccessCore
import Foundation
import GRDB
import Hummingbird

/// "Verify it's you" (seed 000): a successful re-auth opens a 15-minute window, bound to the user and to the
/// sign-in that earned it, proven by the `X-Reauth-Token` header on each sensitive call of that sign-in.
struct ReauthService: Sendable {
    let store: Store
    let clock: BackendClock

    /// A grant for the session whose access token has the digest `accessHash` (the request's, read in this
    /// transaction): it belongs to that session's sign-in, so it survives the sign-in's refreshes and ends
    /// with it (`require`).
    static func issue(
        _ db: Database, store: Store, userId: String, accessHash: String?, method: ReauthMethod, now: Date
    ) throws -> ReauthGrant {
        let digest = store.digest
        guard let family = try liveFamily(db, accessHash: accessHash) else { throw BackendError.unauthorized }
        let token = Secrets.token(prefix: "ra_")
        // A policy that does not keep it: a window that does not close on time.
        let lifetime = RulePolicy.current.enforces(.reauthGranted) ? ReauthRules.window : 2 * ReauthRules.window
        let grant = ReauthGrant(reauthToken: token, expiresAt: now.addingTimeInterval(lifetime), method: .init(method))
        try ReauthGrantRecord(
            tokenHash: digest(token), userId: userId, method: method, expiresAt: grant.expiresAt.unix,
            familyId: family
        ).insert(db)
        return grant
    }

    /// The sign-in of a session that has not ended. A logout, a refresh token's reuse, a password change or
    /// reset, a deletion delete its rows; a sign-out from another device marks them revoked.
    private static func liveFamily(_ db: Database, accessHash: String?) throws -> String? {
        guard let accessHash else { return nil }
        return try String.fetchOne(
            db, sql: "SELECT family_id FROM sessions WHERE access_hash = ? AND revoked = 0", arguments: [accessHash])
    }

    static func token(from request: Request) -> String? {
        let name = APIHeader.reauthToken.lowercased()
        return request.headers.first { $0.name.canonicalName == name }?.value
    }

    /// 403 unless a live grant for this user comes with the request, earned by the request's own sign-in
    /// (`proof.accessHash`) while that sign-in lives, made with another method than the
    /// action's target (`ReauthRule`, shared with the app's picker: no Apple grant disconnects Apple, no
    /// password grant sets a new password); or the account has nothing to verify with but the target
    /// itself (seed 000: the session is the implicit auth then). `target` nil: an action on no method
    /// (deleting the account), which any grant verifies. `user` must have been read in the same transaction
    /// (`AccountService.current`), or the answer can be stale by the time the caller writes.
    ///
    /// The grant ends with its sign-in, however that ends (issue 45 item 6): a copy of the token is worth
    /// nothing to another session of the account, and nothing once its own session logged out or was signed
    /// out. Checked here, where every grant is used, rather than at each way a session ends.
    static func require(
        _ db: Database, digest: TokenDigest, proof: ReauthProof, user: UserRecord, target: ReauthFactor?, now: Date
    ) throws {
        if user.reauthRule.sessionSuffices(for: target) { return }
        guard let token = proof.token, let family = try liveFamily(db, accessHash: proof.accessHash) else {
            throw BackendError.reauthRequired
        }
        let grant = try ReauthGrantRecord.fetchOne(
            db, sql: "SELECT * FROM reauth_grants WHERE token_hash = ? AND expires_at > ?",
            arguments: [digest(token), now.unix])
        guard let grant, Secrets.constantTimeEquals(grant.userId, user.id), grant.familyId == family else {
            throw BackendError.reauthRequired
        }
        guard ReauthRule.grant(grant.method.factor, verifies: target) else { throw grantByTarget }
    }

    static let grantByTarget = BackendError(
        .forbidden, .reauthRequired,
        "This change can't be verified with the method it changes. Verify it's you another way.",
        rule: .reauthGrantByTarget)

    /// `accessHash`: the request's session, which the grant will belong to.
    func byPassword(user: UserRecord, accessHash: String?, password: String) async throws -> ReauthGrant {
        let now = clock.now()
        // A failure must be committed, so it is returned, not thrown (a throw rolls back).
        let outcome: Result<ReauthGrant, BackendError> = try await store.pool.write { db in
            // The password checked is the one stored now, not the one read when the request came in.
            let user = try AccountService.current(db, id: user.id)
            guard let stored = user.passwordHash else {
                throw BackendError(
                    .unprocessableContent, "method_unavailable", "This account has no password.",
                    rule: .reauthMethodUnavailable)
            }
            try RateLimitService.checkPasswordAttempts(db, userId: user.id, now: now)
            guard PasswordHasher.verify(password, stored: stored, legacySalt: user.passwordSalt) else {
                let remaining = try RateLimitService.recordPasswordFailure(db, userId: user.id, now: now)
                var error = BackendError(
                    .unauthorized, "password_incorrect", "Password is incorrect. Try again.",
                    rule: .reauthPasswordIncorrect)
                // The person is warned before the last try, not surprised by the lock after it.
                error.detail.attemptsRemaining = remaining
                return .failure(error)
            }
            if PasswordHasher.needsUpgrade(stored) {
                try PasswordService.upgrade(db, userId: user.id, password: password)
            }
            return .success(
                try Self.issue(db, store: store, userId: user.id, accessHash: accessHash, method: .password, now: now))
        }
        return try outcome.get()
    }
}

/// What a request shows for a change behind "Verify it's you": its `X-Reauth-Token`, and its own session, which
/// must be the one that earned the grant.
struct ReauthProof: Sendable {
    var token: String?
    /// The digest of the request's access token (`SessionService.accessHash(of:)`).
    var accessHash: String?
}

extension ReauthMethod {
    /// The method as the shared rule of what may verify what names it.
    var factor: ReauthFactor {
        switch self {
        case .password: .password
        case .phone: .phone
        case .email: .email
        case .apple: .apple
        case .google: .google
        case .authenticator: .authenticator
        case .passkey: .passkey
        }
    }
}
