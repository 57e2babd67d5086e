import AccessAPI
import Foundation
import GRDB

/// Linking Apple/Google to the account (the hub's Connect pill) and what a link holds: a grant per link,
/// revoked on disconnect and on delete together with every id token not yet used for its subject
/// (seed 001: "token pair with Apple/Google is revoked"). Also the simulated sheet's accounts.
struct ProviderLinkService: Sendable {
    let store: Store
    let clock: BackendClock

    func connect(user: UserRecord, provider: SocialProvider, idToken: String) async throws -> AuthMethods {
        let now = clock.now()
        // A refusal after the id token was spent must be committed, so it is returned, not thrown.
        let outcome: Result<AuthMethods, BackendError> = try await store.pool.write { db in
            let user = try AccountService.current(db, id: user.id)
            if user.subject(of: provider) != nil {
                throw BackendError(
                    .unprocessableContent, "already_linked", "\(provider.display) is already connected.",
                    rule: .connectAlreadyLinked)
            }
            guard
                let subject = try ProviderService.redeem(
                    db, digest: store.digest, provider: provider, idToken: idToken, now: now)
            else {
                return .failure(
                    BackendError(
                        .unauthorized, "provider_token_invalid",
                        "\(provider.display) sign-in didn't work. Try again.", rule: .connectProviderTokenInvalid))
            }
            // Whose it is stays unsaid (seed 001: privacy), like a taken phone or email.
            let taken =
                try Bool.fetchOne(
                    db, sql: "SELECT EXISTS(SELECT 1 FROM users WHERE \(provider.subjectColumn) = ? AND id != ?)",
                    arguments: [subject, user.id]) ?? false
            if taken {
                return .failure(
                    BackendError(
                        .conflict, "provider_taken",
                        "This \(provider.display) account is already connected to another account.",
                        rule: .connectProviderTaken))
            }
            if let until = try IdentityHoldService.heldUntil(
                db, digest: store.digest, provider: provider, subject: subject, now: now)
            {
                return .failure(IdentityHoldService.providerHeld(provider, until: until))
            }
            guard RulePolicy.current.enforces(.connectDone) else { return .success(user.authMethods) }
            try db.execute(
                sql: "UPDATE users SET \(provider.subjectColumn) = ? WHERE id = ?", arguments: [subject, user.id])
            try Self.grant(db, userId: user.id, provider: provider, subject: subject, now: now)
            try EventLog.append(
                db,
                .init(
                    kind: .providerLinked, userId: user.id, rule: .connectDone, detail: ["provider": provider.rawValue]),
                now: now)
            if let email = user.email {
                try OutboxService.send(
                    db,
                    .init(
                        channel: .email, recipient: email, kind: .providerConnectedNotice,
                        purpose: "\(provider.rawValue)_connect"),
                    now: now)
            }
            return .success(try AccountService.current(db, id: user.id).authMethods)
        }
        return try outcome.get()
    }

    /// A link's grant: what the provider's tokens for this account hang on.
    static func grant(_ db: Database, userId: String, provider: SocialProvider, subject: String, now: Date) throws {
        try ProviderGrantRecord(userId: userId, provider: provider, subject: subject, linkedAt: now.unix).insert(db)
    }

    /// Ends the user's live grants for `provider` (every provider when nil) and spends every id token
    /// still unused for their subjects, so nothing minted before can sign in, re-auth or link again.
    /// `spendingUnusedTokens` false only for conform's self-test of `disconnect.done`'s tokens.
    static func revoke(
        _ db: Database, userId: String, provider: SocialProvider?, now: Date, spendingUnusedTokens: Bool = true
    ) throws {
        let providers = provider.map { [$0] } ?? SocialProvider.allCases
        for each in providers {
            if spendingUnusedTokens {
                try db.execute(
                    sql: """
                        UPDATE provider_tokens SET used = 1 WHERE used = 0 AND provider = ? AND subject IN
                            (SELECT subject FROM provider_grants WHERE user_id = ? AND provider = ? AND revoked_at IS NULL)
                        """,
                    arguments: [each, userId, each])
            }
            try db.execute(
                sql:
                    "UPDATE provider_grants SET revoked_at = ? WHERE user_id = ? AND provider = ? AND revoked_at IS NULL",
                arguments: [now.unix, userId, each])
        }
    }

    // MARK: - The simulated sign-in sheet

    /// The accounts "on this device": the user's own linked one, the scenario's (e.g. one linked to
    /// another user), then a fresh one nobody has linked, so Connect always has something to pick.
    /// The user's own is named for the person, as a provider's sheet names an account: the sheet is also
    /// shown signed out (Continue with Apple), where "linked to this account" named an account nobody had.
    func accounts(provider: SocialProvider) async throws -> [ProviderAccount] {
        try await store.pool.read { db in
            let user = try UserRecord.filter(sql: "is_primary = 1").fetchOne(db)
            var accounts: [ProviderAccount] = []
            if let user, let subject = user.subject(of: provider) {
                accounts.append(
                    ProviderAccount(
                        subject: subject, email: user.email ?? "\(user.id)@\(provider.mailDomain)",
                        name: user.displayName ?? user.username ?? Self.scenarioUserName))
            }
            for account in try DeviceAccountRecord.fetchAll(
                db, sql: "SELECT * FROM device_accounts WHERE provider = ? ORDER BY position", arguments: [provider])
            {
                accounts.append(ProviderAccount(subject: account.subject, email: account.email, name: account.name))
            }
            accounts.append(
                ProviderAccount(
                    subject: Self.freshSubject(provider, userId: user?.id),
                    email: "another.account@\(provider.mailDomain)",
                    name: "Another account"))
            var seen: Set<String> = []
            return accounts.filter { seen.insert($0.subject).inserted }
        }
    }

    /// The scenario's user's own account, when the user has no name to show.
    static let scenarioUserName = "The scenario's user"

    /// The sheet's account nobody has linked: stable for a scenario, so QA can pick it by name.
    static func freshSubject(_ provider: SocialProvider, userId: String?) -> String {
        "\(provider.rawValue)_new_\(userId ?? "device")"
    }
}

extension SocialProvider {
    var subjectColumn: String { self == .apple ? "apple_subject" : "google_subject" }
    var mailDomain: String { self == .apple ? "icloud.com" : "gmail.com" }
}
