import AccessAPI
import AccessCore
import Foundation
import GRDB

/// The simulated Apple/Google: the reference backend mints id tokens (what the provider's sheet would
/// return) and accepts only its own, once, within 10 minutes.
struct ProviderService: Sendable {
    let store: Store
    let clock: BackendClock

    static let maxSubjectLength = 255

    func mint(provider: SocialProvider, subject: String?) async throws -> ProviderToken {
        // Counted as the contract's maxLength counts: code points (JSON Schema), not characters as shown.
        if let subject, subject.isEmpty || subject.unicodeScalars.count > Self.maxSubjectLength {
            throw BackendError(
                .unprocessableContent, "invalid_field",
                "subject: expected 1 to \(Self.maxSubjectLength) characters (leave it out for the linked account).",
                rule: .httpInvalidField)
        }
        let now = clock.now()
        let token = Secrets.token(prefix: "idt_")
        let expires = now.addingTimeInterval(ProviderTokenRules.lifetime)
        let resolved: String = try await store.pool.write { db in
            // No subject asked for: the primary user's linked account, else the sheet's fresh account.
            let primary = try UserRecord.filter(sql: "is_primary = 1").fetchOne(db)
            let subject =
                subject ?? primary?.subject(of: provider)
                ?? ProviderLinkService.freshSubject(provider, userId: primary?.id)
            try ProviderTokenRecord(
                tokenHash: store.digest(token), provider: provider, subject: subject, expiresAt: expires.unix
            ).insert(db)
            return subject
        }
        return ProviderToken(provider: provider, subject: resolved, idToken: token, expiresAt: expires)
    }

    /// `accessHash`: the request's session, which the grant will belong to.
    func reauth(
        user: UserRecord, accessHash: String?, provider: SocialProvider, idToken: String
    ) async throws -> ReauthGrant {
        let now = clock.now()
        let grant: ReauthGrant? = try await store.pool.write { db in
            // Linked now, in this transaction: a disconnect that just committed must not be re-auth'd with.
            let user = try AccountService.current(db, id: user.id)
            guard let linked = provider == .apple ? user.appleSubject : user.googleSubject else {
                throw BackendError(
                    .unprocessableContent, "method_unavailable",
                    "This account is not connected to \(provider.display).", rule: .reauthMethodUnavailable)
            }
            guard
                let subject = try Self.redeem(db, digest: store.digest, provider: provider, idToken: idToken, now: now),
                Secrets.constantTimeEquals(subject, linked)
            else { return nil }
            return try ReauthService.issue(
                db, store: store, userId: user.id, accessHash: accessHash,
                method: provider == .apple ? .apple : .google,
                now: now)
        }
        guard let grant else {
            throw BackendError(
                .unauthorized, "provider_token_invalid", "\(provider.display) sign-in didn't match this account.",
                rule: .reauthProviderTokenInvalid)
        }
        return grant
    }

    /// Spends an id token: its subject when it was minted for `provider`, unused and unexpired, else nil.
    /// The caller commits the spend even when it refuses, so a token never works twice.
    static func redeem(
        _ db: Database, digest: TokenDigest, provider: SocialProvider, idToken: String, now: Date
    ) throws -> String? {
        let hash = digest(idToken)
        guard let minted = try ProviderTokenRecord.fetchOne(db, key: hash), minted.provider == provider,
            !minted.used, minted.expiresAt > now.unix
        else { return nil }
        try db.execute(sql: "UPDATE provider_tokens SET used = 1 WHERE token_hash = ?", arguments: [hash])
        return minted.subject
    }
}

extension SocialProvider {
    var display: String { self == .apple ? "Apple" : "Google" }
}
