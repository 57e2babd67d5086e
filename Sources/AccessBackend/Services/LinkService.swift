import AccessAPI
import Foundation
import GRDB

/// One-shot email links. Each purpose keeps its own lifetime (seed README); re-auth links share the
/// 30-minute lifetime of seed 000's magic links. Sending one obeys the same limits as sending a code.
struct LinkService: Sendable {
    static let reauthLifetime: TimeInterval = 30 * 60

    let store: Store
    let clock: BackendClock
    let linkBase: String

    func sendReauthLink(user: UserRecord) async throws -> EmailLinkSent {
        let now = clock.now()
        let token = Secrets.token(prefix: "lk_")
        let expires = now.addingTimeInterval(Self.reauthLifetime)
        let link = "\(linkBase)/reauth?token=\(token)"
        let email: String = try await store.pool.write { db in
            try store.retention.pruneIfDue(db, now: now)
            let user = try AccountService.current(db, id: user.id)
            guard let email = user.email else {
                throw BackendError(
                    .unprocessableContent, "method_unavailable", "This account has no email address.",
                    rule: "reauth.method_unavailable")
            }
            // Another link while one is still live is a resend, as a second code request is for texts.
            let isResend =
                try Bool.fetchOne(
                    db,
                    sql: """
                        SELECT EXISTS(SELECT 1 FROM links
                        WHERE user_id = ? AND purpose = 'reauth' AND used = 0 AND expires_at > ?)
                        """,
                    arguments: [user.id, now.unix]) ?? false
            let requester = RateLimitService.Requester.client(account: user.id)
            try RateLimitService.check(
                db, channel: .email, recipient: email, isResend: isResend, requester: requester, now: now)
            try db.execute(
                sql: "INSERT INTO links (token_hash, user_id, purpose, expires_at) VALUES (?, ?, 'reauth', ?)",
                arguments: [store.digest(token), user.id, expires.unix])
            try RateLimitService.record(
                db, channel: .email, recipient: email, isResend: isResend, requester: requester, now: now)
            try OutboxService.send(
                db,
                .init(
                    channel: "email", recipient: email, kind: "reauth_link", purpose: "reauth", link: link,
                    token: token,
                    tokenHash: store.digest(token)),
                sealedWith: store.outboxSealer, now: now)
            return email
        }
        return EmailLinkSent(sentTo: email, expiresAt: expires)
    }

    func confirmReauth(user: UserRecord, token: String) async throws -> ReauthGrant {
        let now = clock.now()
        enum Outcome { case granted(ReauthGrant), expired, unknown }
        let outcome: Outcome = try await store.pool.write { db in
            let hash = store.digest(token)
            guard
                let row = try Row.fetchOne(
                    db, sql: "SELECT user_id, expires_at, used FROM links WHERE token_hash = ? AND purpose = 'reauth'",
                    arguments: [hash]),
                Secrets.constantTimeEquals(row["user_id"] as String, user.id)
            else { return .unknown }
            if (row["used"] as Bool) || (row["expires_at"] as Double) <= now.unix { return .expired }
            try db.execute(sql: "UPDATE links SET used = 1 WHERE token_hash = ?", arguments: [hash])
            return .granted(
                try ReauthService.issue(db, digest: store.digest, userId: user.id, method: .email, now: now))
        }
        switch outcome {
        case .granted(let grant): return grant
        case .expired:
            throw BackendError(
                .gone, "link_expired", "This link has expired. Request a new one to try again.", rule: "link.expired")
        case .unknown:
            throw BackendError(.notFound, "link_not_found", "This link is not valid.", rule: "link.unknown")
        }
    }
}
