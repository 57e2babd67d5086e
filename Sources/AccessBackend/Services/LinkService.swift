import AccessAPI
import AccessCore
import Foundation
import GRDB

/// Every emailed link, whatever it does (issue 46 item 1): a re-auth link, an email change's or add's, the old
/// address's way back, a registration's (sign-up and onboarding's recovery email), a recovery link, a password
/// reset. One record (`links`, its kind in `purpose`) and this one service: each kind's lifetime, whether opening
/// it spends it, and which earlier links a new one ends come from one table in AccessCore (`EmailLink.rules`);
/// what a link does once opened is its flow's (`EmailService`, `PasswordLoginService`, `RecoveryService`,
/// `PasswordResetService`, re-auth here). Sending one obeys the send limits, which each flow counts its own way.
struct LinkService: Sendable {
    let store: Store
    let clock: BackendClock
    let linkBase: String

    /// A new link of `kind` to `email` for account `userId`, which ends the account's earlier links of the kinds
    /// it supersedes (`link.superseded`) and lives its kind's lifetime. `previousEmail`, `passwordHash`: what an
    /// email change's revert link and an add link carry. Returns when it expires.
    @discardableResult
    func issue(
        _ db: Database, _ kind: EmailLink, userId: String, to email: String, previousEmail: String? = nil,
        passwordHash: String? = nil, now: Date
    ) throws -> Date {
        let rules = kind.rules
        if !rules.supersedes.isEmpty, Self.supersedes(kind) {
            let kinds = rules.supersedes.sorted { $0.rawValue < $1.rawValue }
            try OutboxService.endLinks(
                db, where: "user_id = ? AND purpose IN (\(kinds.map { _ in "?" }.joined(separator: ", ")))",
                StatementArguments([userId] + kinds.map(\.rawValue)), as: .superseded, now: now)
        }
        let token = Secrets.token(prefix: kind.tokenPrefix)
        // Not kept (conform's self-test of `link.sent`): a link that has run out when it arrives.
        let kept = kind != .reauth || RulePolicy.current.enforces(.linkSent)
        let expires = now.addingTimeInterval(kept ? rules.lifetime : 0)
        try LinkRecord(
            tokenHash: store.digest(token), userId: userId, purpose: kind, expiresAt: expires.unix, email: email,
            previousEmail: previousEmail, passwordHash: passwordHash
        ).insert(db)
        try OutboxService.send(
            db,
            .init(
                channel: .email, recipient: email, kind: kind.outboxKind, purpose: kind.rawValue,
                link: "\(linkBase)/\(kind.path)?token=\(token)", token: token, tokenHash: store.digest(token),
                userId: userId),
            sealedWith: store.outboxSealer, now: now)
        return expires
    }

    /// Whether a new link of `kind` ends the earlier ones its table names: always, but where conform's self-test
    /// breaks the email change's one-pending-change rule through the policy.
    private static func supersedes(_ kind: EmailLink) -> Bool {
        guard kind == .emailChange || kind == .emailAdd else { return true }
        return RulePolicy.current.enforces(.emailLinkSent) && RulePolicy.current.enforces(.emailLinkResent)
    }

    /// Whether the account has a link of one of `kinds` that still works (to `email`, when given): another sent
    /// while one is live is a resend, as a second code request is for texts.
    static func hasLive(
        _ db: Database, _ kinds: [EmailLink], userId: String, to email: String? = nil, now: Date
    ) throws -> Bool {
        let marks = kinds.map { _ in "?" }.joined(separator: ", ")
        var arguments = StatementArguments([userId] + kinds.map(\.rawValue))
        var filter = "user_id = ? AND purpose IN (\(marks)) AND used = 0 AND expires_at > ?"
        if let email {
            filter += " AND email = ? COLLATE NOCASE"
            arguments += [now.unix, email]
        } else {
            arguments += [now.unix]
        }
        return try Bool.fetchOne(db, sql: "SELECT EXISTS(SELECT 1 FROM links WHERE \(filter))", arguments: arguments)
            ?? false
    }

    /// The link a token names, if it is of one of `kinds` and still works: 404 for a token never issued (or of
    /// another kind, or, given `userId`, another account's), 410 for one used, replaced by a newer link
    /// (`link.superseded`) or past its lifetime. Not spent here: the caller spends it (`spend`) in the
    /// transaction that acts on it, once it did.
    static func live(
        _ db: Database, tokenHash: String, _ kinds: Set<EmailLink>, userId: String? = nil, now: Date
    ) throws -> LinkRecord {
        guard let link = try LinkRecord.find(db, tokenHash: tokenHash), kinds.contains(link.purpose),
            userId.map({ Secrets.constantTimeEquals(link.userId, $0) }) ?? true
        else { throw unknown(kinds) }
        guard link.isLive(at: now.unix) else {
            throw OutboxService.refusal(linkEnded: link.ended, else: expired(kinds))
        }
        return link
    }

    /// `live` for a kind that acts on the address it was sent to, with that address.
    static func liveAddress(
        _ db: Database, tokenHash: String, _ kinds: Set<EmailLink>, now: Date
    ) throws -> (link: LinkRecord, email: String) {
        let link = try live(db, tokenHash: tokenHash, kinds, now: now)
        guard let email = link.email else { throw unknown(kinds) }
        return (link, email)
    }

    /// Opened to effect: a one-shot kind never works again. An event of the account's timeline either way.
    static func spend(_ db: Database, _ link: LinkRecord, now: Date) throws {
        try EventLog.append(
            db,
            .init(
                kind: .linkOpened, userId: link.userId, subject: link.email, detail: ["purpose": link.purpose.rawValue]),
            now: now)
        guard link.purpose.rules.oneShot, RulePolicy.current.enforces(expired([link.purpose]).rule) else { return }
        try LinkRecord.spend(db, tokenHash: link.tokenHash)
    }

    /// The account and address a token's link names (nil: no such link), for the event of a refusal to open it.
    static func owner(_ store: Store, token: String) async throws -> (userId: String?, email: String?) {
        let found = try await store.pool.read { db in try LinkRecord.find(db, tokenHash: store.digest(token)) }
        return (found?.userId, found?.email)
    }

    /// A link never issued, as the flow that opens `kinds` names it: recovery's own rule, else `link.unknown`.
    static func unknown(_ kinds: Set<EmailLink>) -> BackendError {
        BackendError(
            .notFound, "link_not_found", "This link is not valid.",
            rule: kinds == [.recovery] ? .recoveryLinkUnknown : .linkUnknown)
    }

    /// A link used or past its lifetime, as the flow that opens `kinds` names it.
    static func expired(_ kinds: Set<EmailLink>) -> BackendError {
        BackendError(
            .gone, "link_expired", "This link has expired. Request a new one to try again.",
            rule: kinds == [.recovery] ? .recoveryLinkExpired : .linkExpired)
    }

    // MARK: - Verify it's you by email

    func sendReauthLink(user: UserRecord) async throws -> EmailLinkSent {
        let now = clock.now()
        return try await EventLog.recordingRefusals(store, now: now, userId: user.id, subject: nil) {
            try await sendReauthLinkRecorded(user: user, now: now)
        }
    }

    private func sendReauthLinkRecorded(user: UserRecord, now: Date) async throws -> EmailLinkSent {
        try await store.pool.write { db in
            try store.retention.pruneIfDue(db, now: now)
            let user = try AccountService.current(db, id: user.id)
            guard let email = user.email else {
                throw BackendError(
                    .unprocessableContent, "method_unavailable", "This account has no email address.",
                    rule: .reauthMethodUnavailable)
            }
            let isResend = try Self.hasLive(db, [.reauth], userId: user.id, now: now)
            let requester = RateLimitService.Requester.client(account: user.id)
            try RateLimitService.check(
                db, channel: .email, recipient: email, purpose: EmailLink.reauth.rawValue, isResend: isResend,
                requester: requester, now: now)
            let expires = try issue(db, .reauth, userId: user.id, to: email, now: now)
            try RateLimitService.record(
                db, channel: .email, recipient: email, isResend: isResend, requester: requester, now: now)
            return EmailLinkSent(sentTo: email, expiresAt: expires)
        }
    }

    /// `accessHash`: the request's session, which the grant will belong to. Another account's link is unknown.
    func confirmReauth(user: UserRecord, accessHash: String?, token: String) async throws -> ReauthGrant {
        let now = clock.now()
        return try await EventLog.recordingRefusals(store, now: now, userId: user.id, subject: user.email) {
            try await store.pool.write { db in
                let link = try Self.live(db, tokenHash: store.digest(token), [.reauth], userId: user.id, now: now)
                if RulePolicy.current.enforces(.linkExpired) { try Self.spend(db, link, now: now) }
                return try ReauthService.issue(
                    db, store: store, userId: user.id, accessHash: accessHash, method: .email, now: now)
            }
        }
    }

    // MARK: - Any link

    /// `POST /auth/links/inspect`: what a token's link is and whether it still works, read without a write, so
    /// asking never spends it. A token never issued (whatever its shape) is `link.unknown`, as opening it is.
    func inspect(token: String) async throws -> LinkInfo {
        let now = clock.now()
        let tokenHash = store.digest(token)
        let link =
            RulePolicy.current.enforces(.linkInspected)
            ? try await store.pool.read { db in try LinkRecord.find(db, tokenHash: tokenHash) }
            // Not kept (conform's self-test of `link.inspected`): inspecting spends the link.
            : try await store.pool.write { db in
                let link = try LinkRecord.find(db, tokenHash: tokenHash)
                if let link { try Self.spend(db, link, now: now) }
                return link
            }
        guard let link else { throw Self.unknown(Set(EmailLink.allCases)) }
        return LinkInfo(
            kind: .init(Self.kind(link.purpose)), state: .init(Self.state(link, now: now)),
            expiresAt: Date(unix: link.expiresAt))
    }

    static func kind(_ purpose: EmailLink) -> LinkKind {
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
}

extension EmailLink {
    /// What the outbox calls the message that carries it.
    var outboxKind: OutboxKind {
        switch self {
        case .reauth: .reauthLink
        case .emailChange, .emailAdd, .register: .emailVerifyLink
        case .emailRevert: .emailChangedNotice
        case .recovery: .recoveryLink
        case .passwordReset: .passwordResetLink
        }
    }

    /// Where it points, under the backend's link base.
    var path: String {
        switch self {
        case .reauth: "reauth"
        case .emailChange, .emailAdd: "verify-email"
        case .emailRevert: "revert-email"
        case .register: "confirm-account"
        case .recovery: "recover"
        case .passwordReset: "reset-password"
        }
    }

    /// Its token's prefix, which says nothing a client relies on but helps a person reading a log.
    var tokenPrefix: String {
        switch self {
        case .recovery: "rc_"
        case .passwordReset: "pr_"
        case .reauth, .emailChange, .emailAdd, .emailRevert, .register: "lk_"
        }
    }
}
