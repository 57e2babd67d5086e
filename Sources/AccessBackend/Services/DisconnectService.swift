import AccessAPI
import AccessCore
import Foundation
import GRDB

/// Disconnecting Apple/Google (seed 000): re-auth first, and a hard block (409) when the provider is the
/// user's only sign-in method, since zero methods means locked out for good. The link's grant and its
/// unused id tokens are revoked with it (`ProviderLinkService.revoke`).
struct DisconnectService: Sendable {
    let store: Store
    let clock: BackendClock

    func disconnect(user: UserRecord, provider: SocialProvider, reauth: ReauthProof) async throws -> AuthMethods {
        let now = clock.now()
        return try await store.pool.write { db in
            // The user as this transaction sees it, not as authentication saw it: two disconnects racing
            // (apple, google) must each see the other's result, or both pass and leave no method at all.
            let user = try AccountService.current(db, id: user.id)
            let linked = provider == .apple ? user.appleSubject : user.googleSubject
            guard linked != nil else {
                throw BackendError(
                    .unprocessableContent, "not_linked", "\(provider.display) is not connected.",
                    rule: .disconnectNotLinked)
            }
            if user.signInMethods.isOnly(provider.signInMethod), RulePolicy.current.enforces(.disconnectLastMethod) {
                throw BackendError(
                    .conflict, "last_method",
                    "\(provider.display) is your only way to sign in. Add another method before disconnecting it.",
                    rule: .disconnectLastMethod)
            }
            try ReauthService.require(
                db, digest: store.digest, proof: reauth, user: user, target: provider.signInMethod.reauthFactor,
                now: now)
            guard RulePolicy.current.enforces(.disconnectDone) else { return user.authMethods }
            // Seed 001: "token pair with Apple/Google is revoked", in the same transaction as the unlink.
            // Not kept (the tokens alone): the grant is revoked, and an id token minted before still works.
            try ProviderLinkService.revoke(
                db, userId: user.id, provider: provider, now: now,
                spendingUnusedTokens: RulePolicy.current.enforces(.disconnectDone, .unusedTokensRevoked))
            try db.execute(sql: "UPDATE users SET \(provider.subjectColumn) = NULL WHERE id = ?", arguments: [user.id])
            try EventLog.append(
                db,
                .init(
                    kind: .providerDisconnected, userId: user.id, rule: .disconnectDone,
                    detail: ["provider": provider.rawValue]),
                now: now)
            if let email = user.email {
                try OutboxService.send(
                    db,
                    .init(
                        channel: .email, recipient: email, kind: .providerDisconnectedNotice,
                        purpose: "\(provider.rawValue)_disconnect"),
                    now: now)
            }
            return try AccountService.current(db, id: user.id).authMethods
        }
    }
}

extension SocialProvider {
    var signInMethod: SignInMethod { self == .apple ? .apple : .google }
}
