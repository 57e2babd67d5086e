import AccessAPI
import AccessCore
import Foundation
import GRDB

/// One-shot email links. Each purpose keeps its own lifetime (docs/RULES.md: `link.sent`, `email.link_sent`,
/// `register.link_sent`, `recovery.answered`); re-auth links share the 30-minute lifetime of seed 000's magic
/// links. Sending one obeys the same limits as sending a code.
struct LinkService: Sendable {
    static let reauthLifetime = LinkLifetimes.reauth

    let store: Store
    let clock: BackendClock
    let linkBase: String

    func sendReauthLink(user: UserRecord) async throws -> EmailLinkSent {
        let now = clock.now()
        let token = Secrets.token(prefix: "lk_")
        // Not kept: a link that has run out when it arrives.
        let expires = now.addingTimeInterval(RulePolicy.current.enforces(.linkSent) ? Self.reauthLifetime : 0)
        let link = "\(linkBase)/reauth?token=\(token)"
        let email: String = try await store.pool.write { db in
            try store.retention.pruneIfDue(db, now: now)
            let user = try AccountService.current(db, id: user.id)
            guard let email = user.email else {
                throw BackendError(
                    .unprocessableContent, "method_unavailable", "This account has no email address.",
                    rule: .reauthMethodUnavailable)
            }
            // Another link while one is still live is a resend, as a second code request is for texts.
            let isResend =
                try Bool.fetchOne(
                    db,
                    sql: """
                        SELECT EXISTS(SELECT 1 FROM links
                        WHERE user_id = ? AND purpose = ? AND used = 0 AND expires_at > ?)
                        """,
                    arguments: [user.id, LinkPurpose.reauth, now.unix]) ?? false
            let requester = RateLimitService.Requester.client(account: user.id)
            try RateLimitService.check(
                db, channel: .email, recipient: email, isResend: isResend, requester: requester, now: now)
            // The newest link is the one that works (`link.superseded`), as for every other kind of link.
            try OutboxService.endLinks(
                db, where: "user_id = ? AND purpose = ?", [user.id, LinkPurpose.reauth], as: .superseded, now: now)
            try LinkRecord(tokenHash: store.digest(token), userId: user.id, purpose: .reauth, expiresAt: expires.unix)
                .insert(db)
            try RateLimitService.record(
                db, channel: .email, recipient: email, isResend: isResend, requester: requester, now: now)
            try OutboxService.send(
                db,
                .init(
                    channel: .email, recipient: email, kind: .reauthLink, purpose: LinkPurpose.reauth.rawValue,
                    link: link, token: token, tokenHash: store.digest(token)),
                sealedWith: store.outboxSealer, now: now)
            return email
        }
        return EmailLinkSent(sentTo: email, expiresAt: expires)
    }

    /// `POST /auth/links/inspect`: what a token's link is and whether it still works, read without a write, so
    /// asking never spends it. A token never issued (whatever its shape) is `link.unknown`, as opening it is.
    func inspect(token: String) async throws -> LinkInfo {
        let now = clock.now()
        let link = try await store.pool.write { db in
            let link = try LinkRecord.find(db, tokenHash: store.digest(token))
            // Not kept: inspecting spends the link.
            if link != nil, !RulePolicy.current.enforces(.linkInspected) {
                try LinkRecord.spend(db, tokenHash: store.digest(token))
            }
            return link
        }
        guard let link else {
            throw BackendError(.notFound, "link_not_found", "This link is not valid.", rule: .linkUnknown)
        }
        return LinkInfo(
            kind: .init(Self.kind(link.purpose)), state: .init(Self.state(link, now: now)),
            expiresAt: Date(unix: link.expiresAt))
    }

    static func kind(_ purpose: LinkPurpose) -> LinkKind {
        switch purpose {
        case .reauth: .reauth
        case .emailChange: .emailChange
        case .emailAdd: .emailAdd
        case .emailRevert: .emailRevert
        case .register: .register
        case .recovery: .recovery
        case .passwordReset: .passwordReset
        }
    }

    /// Ended unopened (`links.ended`, `OutboxService.endLinks`): replaced or cancelled reads `superseded` (the
    /// contract's "a newer link was sent, or its change was undone"), ended after its lifetime `expired`. Opened
    /// reads `used`; otherwise its lifetime decides.
    static func state(_ link: LinkRecord, now: Date) -> LinkState {
        switch link.ended {
        case .superseded, .cancelled: return .superseded
        case .expired: return .expired
        case .live, .used, .exhausted, nil: break
        }
        if link.used { return .used }
        return link.expiresAt > now.unix ? .live : .expired
    }

    /// The live link a digest stands for, of one of `purposes` and naming an address: 404 for a token never
    /// issued (or for something else), 410 for one used, replaced or past its time (`link.superseded` when a
    /// newer link replaced it). Not spent here: the caller spends it in the transaction that acts on it.
    static func liveEmailLink(
        _ db: Database, tokenHash: String, purposes: [LinkPurpose], now: Date
    ) throws -> (link: LinkRecord, email: String) {
        guard let link = try LinkRecord.find(db, tokenHash: tokenHash), purposes.contains(link.purpose),
            let email = link.email
        else {
            throw BackendError(.notFound, "link_not_found", "This link is not valid.", rule: .linkUnknown)
        }
        guard link.isLive(at: now.unix) else {
            throw OutboxService.refusal(
                linkEnded: link.ended,
                else: BackendError(
                    .gone, "link_expired", "This link has expired. Request a new one to try again.",
                    rule: .linkExpired))
        }
        return (link, email)
    }

    /// `accessHash`: the request's session, which the grant will belong to.
    func confirmReauth(user: UserRecord, accessHash: String?, token: String) async throws -> ReauthGrant {
        let now = clock.now()
        enum Outcome { case granted(ReauthGrant), expired(OutboxStatus?), unknown }
        let outcome: Outcome = try await store.pool.write { db in
            let hash = store.digest(token)
            guard let link = try LinkRecord.find(db, tokenHash: hash), link.purpose == .reauth,
                Secrets.constantTimeEquals(link.userId, user.id)
            else { return .unknown }
            guard link.isLive(at: now.unix) else { return .expired(link.ended) }
            if RulePolicy.current.enforces(.linkExpired) { try LinkRecord.spend(db, tokenHash: hash) }
            return .granted(
                try ReauthService.issue(
                    db, store: store, userId: user.id, accessHash: accessHash, method: .email, now: now))
        }
        switch outcome {
        case .granted(let grant): return grant
        case .expired(let ended):
            throw OutboxService.refusal(
                linkEnded: ended,
                else: BackendError(
                    .gone, "link_expired", "This link has expired. Request a new one to try again.",
                    rule: .linkExpired))
        case .unknown:
            throw BackendError(.notFound, "link_not_found", "This link is not valid.", rule: .linkUnknown)
        }
    }
}
