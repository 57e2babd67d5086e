import AccessAPI
import AccessCore
import Foundation
import GRDB

/// Disconnecting Apple/Google (seed 000): re-auth first, and a hard block (409) when the provider is the
/// user's only sign-in method, since zero methods means locked out for good.
struct DisconnectService: Sendable {
    let store: Store
    let clock: BackendClock

    func disconnect(user: UserRecord, provider: SocialProvider, reauthToken: String?) async throws -> AuthMethods {
        let now = clock.now()
        return try await store.pool.write { db in
            // The user as this transaction sees it, not as authentication saw it: two disconnects racing
            // (apple, google) must each see the other's result, or both pass and leave no method at all.
            let user = try AccountService.current(db, id: user.id)
            let linked = provider == .apple ? user.appleSubject : user.googleSubject
            guard linked != nil else {
                throw BackendError(
                    .unprocessableContent, "not_linked", "\(provider.display) is not connected.",
                    rule: "disconnect.not_linked")
            }
            if user.signInMethods.isOnly(provider.signInMethod) {
                throw BackendError(
                    .conflict, "last_method",
                    "\(provider.display) is your only way to sign in. Add another method before disconnecting it.",
                    rule: "disconnect.last_method")
            }
            try ReauthService.require(
                db, digest: store.digest, token: reauthToken, user: user, target: provider.signInMethod, now: now)
            let column = provider == .apple ? "apple_subject" : "google_subject"
            try db.execute(sql: "UPDATE users SET \(column) = NULL WHERE id = ?", arguments: [user.id])
            guard let updated = try UserRecord.fetchOne(db, key: user.id) else { throw BackendError.unauthorized }
            return updated.authMethods
        }
    }
}

extension SocialProvider {
    var signInMethod: SignInMethod { self == .apple ? .apple : .google }
}
