import AccessAPI
import AccessCore
import Foundation
import GRDB
import Hummingbird

/// Access tokens (1 h) and refresh tokens (7 days, rotated on every use). Only hashes are stored, but for
/// the reuse interval's sealed copy of the newest pair.
struct SessionService: Sendable {
    let store: Store
    let clock: BackendClock

    /// The QA shortcut (`POST /_admin/session`): with a device and a method when the palette's "Sign in from
    /// another device" names them, the sign-in a real one would have made.
    /// `assurance`: aal2 for an account with two-factor on, whose QA session stands for a device that passed
    /// the second step before (issue 31).
    func issue(
        userId: String, access: AccessLevel, assurance: AssuranceLevel = .aal1, device: DeviceInfo? = nil,
        method: SessionMethod? = nil
    ) async throws -> SessionTokens {
        if let device { try DeviceService.validate(device) }
        let now = clock.now()
        return try await store.pool.write { db in
            try store.retention.pruneIfDue(db, now: now)
            let deviceId = try device.map { try DeviceService.register(db, userId: userId, device: $0, now: now).id }
            return try Self.issue(
                db, digest: store.digest, userId: userId, deviceId: deviceId, access: access, assurance: assurance,
                method: method, now: now)
        }
    }

    /// A new session inside the caller's transaction, e.g. with the email change that earns it. A sign-in
    /// starts a family: every session rotated from this one belongs to it.
    /// `deviceId`: the device a sign-in registered (seed 004); nil for the QA shortcut and the sessions
    /// an email change issues in place of the old one.
    /// `access`: limited only for the session an account recovery by email issues (seed 003).
    /// `method`: how the sign-in was made, for Active sessions (issue 30); nil where no one signed in.
    /// `assurance`: aal1 for every first factor; aal2 only where a second factor is known to have passed.
    static func issue(
        _ db: Database, digest: TokenDigest, userId: String, deviceId: String? = nil, access: AccessLevel = .full,
        assurance: AssuranceLevel = .aal1, method: SessionMethod? = nil, now: Date
    ) throws -> SessionTokens {
        let tokens = SessionTokens(
            userId: userId, accessToken: Secrets.token(prefix: "at_"),
            accessExpiresAt: now.addingTimeInterval(SessionRules.accessLifetime),
            refreshToken: Secrets.token(prefix: "rt_"),
            refreshExpiresAt: now.addingTimeInterval(SessionRules.refreshLifetime))
        let family = Secrets.identifier(prefix: "sf_")
        ContractScope.current?.capture?.setUser(userId)
        try insert(
            db, digest: digest, tokens, family: family, deviceId: deviceId, access: access, assurance: assurance)
        try SignInRecord(
            familyId: family, userId: userId, deviceId: deviceId, method: method, createdAt: now.unix,
            lastSeenAt: now.unix, clientAddress: ContractScope.current?.remoteAddress
        ).insert(db)
        try EventLog.append(
            db,
            .init(
                kind: .sessionStarted, userId: userId, detail: method.map { ["method": $0.rawValue] } ?? [:],
                familyId: family, deviceId: deviceId),
            now: now)
        return tokens
    }

    /// The live sign-ins of `userId` that a statement is about to end (all but the one holding `keeping`).
    static func liveFamilies(_ db: Database, userId: String, keeping: String? = nil) throws -> [Row] {
        try Row.fetchAll(
            db,
            sql: """
                SELECT DISTINCT family_id, device_id FROM sessions
                WHERE user_id = ? AND revoked = 0 AND family_id NOT IN (
                    SELECT family_id FROM sessions WHERE access_hash IS ?)
                """,
            arguments: [userId, keeping])
    }

    /// One `session_ended` event per sign-in in `families` (rows of family_id and device_id), with its reason.
    /// `reasonKeptUntil`: how long a 401 for its tokens says why, when that is past their own lifetime.
    /// `byRequest`: false when no request of this person ended it (a lifetime ran out), so the event has no address.
    static func recordEnds(
        _ db: Database, userId: String, families: [Row], reason: SessionEndReason, rule: Rule?, now: Date,
        reasonKeptUntil: Date? = nil, byRequest: Bool = true
    ) throws {
        for family in families {
            let familyId: String = family["family_id"]
            try db.execute(
                sql: """
                    INSERT OR REPLACE INTO ended_sessions (access_hash, refresh_hash, reason, expires_at)
                    SELECT access_hash, refresh_hash, ?, MAX(refresh_expires_at, ?) FROM sessions WHERE family_id = ?
                    """,
                arguments: [reason.rawValue, reasonKeptUntil?.unix ?? 0, familyId])
            try EventLog.append(
                db,
                .init(
                    kind: .sessionEnded, userId: userId, rule: rule, detail: ["reason": reason.rawValue],
                    familyId: familyId, deviceId: family["device_id"], byRequest: byRequest),
                now: now)
        }
    }

    /// Sign-ins whose refresh token outlived `SessionRules.refreshLifetime` end with reason `expired`, dated
    /// when it ran out. No request ends them, so the backend judges them when it next meets them: retention's
    /// sweep, which every write (a refresh among them) runs first, just before it deletes their rows. A 401 for
    /// their tokens says `expired` for `RetentionService.expiredGrace` after.
    static func endExpired(_ db: Database, now: Date) throws {
        let families = try Row.fetchAll(
            db,
            sql: """
                SELECT user_id, family_id, device_id, MAX(refresh_expires_at) AS ran_out FROM sessions AS ran
                WHERE revoked = 0 AND refresh_expires_at <= ? AND NOT EXISTS (
                    SELECT 1 FROM sessions WHERE family_id = ran.family_id AND refresh_expires_at > ?)
                GROUP BY family_id
                """,
            arguments: [now.unix, now.unix])
        for family in families {
            try recordEnds(
                db, userId: family["user_id"], families: [family], reason: .expired, rule: nil,
                now: Date(unix: family["ran_out"]),
                reasonKeptUntil: now.addingTimeInterval(RetentionService.expiredGrace),
                byRequest: false)
        }
    }

    private static func insert(
        _ db: Database, digest: TokenDigest, _ tokens: SessionTokens, family: String, deviceId: String?,
        access: AccessLevel, assurance: AssuranceLevel
    ) throws {
        try SessionRecord(
            accessHash: digest(tokens.accessToken), refreshHash: digest(tokens.refreshToken), userId: tokens.userId,
            accessExpiresAt: tokens.accessExpiresAt.unix, refreshExpiresAt: tokens.refreshExpiresAt.unix,
            familyId: family, deviceId: deviceId, access: access, assurance: assurance
        ).insert(db)
    }

    /// The second factor passed (issue 31): the aal1 pair of `accessHash` dies and an aal2 pair takes its place
    /// in the same sign-in, so a copy of the aal1 tokens is worth nothing afterwards. No spent-token record is
    /// kept for it: the reuse interval must never hand an aal2 pair to whoever holds the aal1 refresh token.
    static func raiseToSecondFactor(
        _ db: Database, digest: TokenDigest, accessHash: String, now: Date
    ) throws
        -> SessionTokens
    {
        guard let old = try SessionRecord.fetchOne(db, key: accessHash), !old.revoked else {
            throw BackendError.unauthorized
        }
        var family = old.familyId
        // Not kept: the aal1 pair lives on beside the new one; or, the refresh tokens' effect alone broken, its
        // access token ends and its refresh token lives on; or, the same sign-in's effect alone broken, the new
        // pair is a sign-in of its own and the first stays listed in Active sessions, its tokens dead.
        if RulePolicy.current.enforces(.twoFactorPassed), !RulePolicy.current.enforces(.twoFactorPassed, .sameSignIn) {
            try db.execute(
                sql:
                    "UPDATE sessions SET access_hash = ?, refresh_hash = ?, access_expires_at = 0 WHERE access_hash = ?",
                arguments: [digest(Secrets.token(prefix: "at_")), digest(Secrets.token(prefix: "rt_")), accessHash])
            family = Secrets.identifier(prefix: "sf_")
            try SignInRecord(
                familyId: family, userId: old.userId, deviceId: old.deviceId, method: nil, createdAt: now.unix,
                lastSeenAt: now.unix, clientAddress: ContractScope.current?.remoteAddress
            ).insert(db)
        } else if RulePolicy.current.enforces(.twoFactorPassed, .refreshTokensEnd) {
            try old.delete(db)
        } else if RulePolicy.current.enforces(.twoFactorPassed) {
            try db.execute(
                sql: "UPDATE sessions SET access_expires_at = 0 WHERE access_hash = ?", arguments: [accessHash])
        }
        let tokens = SessionTokens(
            userId: old.userId, accessToken: Secrets.token(prefix: "at_"),
            accessExpiresAt: now.addingTimeInterval(SessionRules.accessLifetime),
            refreshToken: Secrets.token(prefix: "rt_"),
            refreshExpiresAt: now.addingTimeInterval(SessionRules.refreshLifetime))
        try insert(
            db, digest: digest, tokens, family: family, deviceId: old.deviceId, access: old.access, assurance: .aal2)
        return tokens
    }

    /// `GET /auth/me`: the session's user and the device it was issued to.
    func me(_ request: Request) async throws -> CurrentUser {
        let found = try await authenticateSession(request)
        let user = found.user
        let (deviceId, profile) = try await store.pool.read { db in
            let session = try accessHash(of: request).flatMap { try SessionRecord.fetchOne(db, key: $0) }
            var profile = try OnboardingService.profile(db, userId: user.id, access: found.access)
            profile.assuranceLevel = .init(found.assurance)
            return (session?.deviceId, profile)
        }
        return CurrentUser(userId: user.id, deviceId: deviceId, authMethods: user.authMethods, profile: profile)
    }

    /// Ends every session of the user but `keeping` (an access token's digest); returns how many ended.
    /// Signing everyone out also closes the re-auth window; a kept session keeps it.
    /// What a backend that ends the access tokens but not their refresh tokens does: conform's self-tests break
    /// `RulePolicy.Effect.refreshTokensEnd` with it. Returns how many sessions it touched.
    static func endAccessOnly(_ db: Database, userId: String, reason: SessionEndReason, now: Date) throws -> Int {
        try recordEnds(
            db, userId: userId, families: liveFamilies(db, userId: userId), reason: reason, rule: nil, now: now)
        try db.execute(sql: "UPDATE sessions SET access_expires_at = 0 WHERE user_id = ?", arguments: [userId])
        return db.changesCount
    }

    static func revokeAll(
        _ db: Database, userId: String, keeping: String? = nil, reason: SessionEndReason, now: Date
    ) throws -> Int {
        try recordEnds(
            db, userId: userId, families: liveFamilies(db, userId: userId, keeping: keeping), reason: reason,
            rule: nil, now: now)
        try db.execute(
            sql: "DELETE FROM sessions WHERE user_id = ? AND access_hash IS NOT ?", arguments: [userId, keeping])
        let ended = db.changesCount
        if keeping == nil {
            try db.execute(sql: "DELETE FROM reauth_grants WHERE user_id = ?", arguments: [userId])
        }
        return ended
    }

    /// A signed-in session as a request presents it: its user, its access and its assurance level.
    struct Authenticated: Sendable {
        var user: UserRecord
        var access: AccessLevel
        var assurance: AssuranceLevel

        /// An aal1 session of an account with two-factor on (issue 31): it has passed one factor of two.
        var awaitsSecondFactor: Bool { assurance == .aal1 && user.hasTwoFactor }
    }

    /// What a session that awaits its second factor may still call (issue 31). Everything else is refused in
    /// `authenticateSession`, so a new operation is refused to it unless it is named here.
    enum FirstFactorAllowance {
        /// Every other operation: refused to a session awaiting its second factor.
        case refused
        /// POST /auth/two-factor/verify and /recovery (passing it) and POST /auth/logout (giving up).
        case secondStepOrLogout
    }

    /// The user behind `Authorization: Bearer …`, or 401.
    func authenticate(
        _ request: Request, firstFactor: FirstFactorAllowance = .refused
    ) async throws -> UserRecord {
        try await authenticateSession(request, firstFactor: firstFactor).user
    }

    /// The user behind `Authorization: Bearer …`, the access and the assurance level of its session, or 401.
    /// A session signed out from another device is told apart (401 `session_revoked`). A found one moves its
    /// sign-in's last seen (`SessionListService.touch`). Default-deny for two-factor (issue 31): a session
    /// that awaits its second factor is refused here, 403 `second_factor_required`, unless the caller names
    /// the allowance (`FirstFactorAllowance`).
    func authenticateSession(
        _ request: Request, firstFactor: FirstFactorAllowance = .refused
    ) async throws -> Authenticated {
        guard let accessHash = accessHash(of: request) else { throw BackendError.unauthorized }
        let now = clock.now()
        guard let found = try lookUp(accessHash: accessHash, now: now.unix) else {
            let revoked = try await store.pool.read { db in
                try Bool.fetchOne(
                    db, sql: "SELECT EXISTS(SELECT 1 FROM sessions WHERE access_hash = ? AND revoked = 1)",
                    arguments: [accessHash]) ?? false
            }
            if revoked { throw SessionListService.revoked }
            throw try await Self.endedError(BackendError.unauthorized, store: store, column: "access_hash", accessHash)
        }
        ContractScope.current?.capture?.setUser(found.user.id)
        try await SessionListService(store: store, clock: clock).touch(
            accessHash: accessHash, address: ContractScope.current?.remoteAddress, now: now)
        if found.awaitsSecondFactor, firstFactor == .refused { throw TwoFactorService.required }
        return found
    }

    /// `error` with the reason the session whose token has this digest ended (issue 49 item 3), when one is kept.
    private static func endedError(
        _ error: BackendError, store: Store, column: String, _ hash: String
    ) async throws -> BackendError {
        let reason = try await store.pool.read { db in
            try String.fetchOne(db, sql: "SELECT reason FROM ended_sessions WHERE \(column) = ?", arguments: [hash])
        }
        var error = error
        error.detail.reason = reason
        return error
    }

    /// Re-verifying a phone ends the limits of the session that did it (seed 003).
    static func grantFullAccess(_ db: Database, accessHash: String) throws {
        try db.execute(
            sql: "UPDATE sessions SET access = ? WHERE access_hash = ?", arguments: [AccessLevel.full, accessHash])
    }

    /// The access of the session whose access token has this digest, read in the caller's transaction.
    static func access(_ db: Database, accessHash: String?) throws -> AccessLevel {
        try accessHash.flatMap { try SessionRecord.fetchOne(db, key: $0) }?.access ?? .full
    }

    /// The stored digest of the request's access token: how a rule names "this session".
    func accessHash(of request: Request) -> String? {
        Self.accessHash(of: request, digest: store.digest)
    }

    static func accessHash(of request: Request, digest: TokenDigest) -> String? {
        // The scheme is case-insensitive (RFC 9110 §11.1). Over the header's bytes: lowercasing and trimming
        // strings, then comparing and dropping `Character`s, were a measurable share of every authenticated
        // request (8 K instructions of a GET /me/auth-methods besides the digest, issue 34).
        guard var header = request.headers.value(of: .authorization) else { return nil }
        let token = header.withUTF8 { bytes -> String? in
            let scheme = Self.bearerScheme
            guard bytes.count > scheme.count else { return nil }
            for (offset, wanted) in scheme.enumerated() {
                let byte = bytes[offset]
                guard byte == wanted || byte | 0x20 == wanted && wanted != UInt8(ascii: " ") else { return nil }
            }
            var start = scheme.count
            var end = bytes.count
            while start < end, bytes[start] == UInt8(ascii: " ") || bytes[start] == UInt8(ascii: "\t") { start += 1 }
            while end > start, bytes[end - 1] == UInt8(ascii: " ") || bytes[end - 1] == UInt8(ascii: "\t") { end -= 1 }
            return String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<end]), as: UTF8.self)
        }
        return token.map { digest($0) }
    }

    private static let bearerScheme = Array("bearer ".utf8)

    /// From the cache of lookups since the last commit, else one indexed read. Synchronous on purpose: every
    /// authenticated request runs this, and GRDB's async read (a hop to its reader queue and back) tripled
    /// its cost. A WAL reader never waits for writers.
    private func lookUp(accessHash: String, now: Double) throws -> Authenticated? {
        let (cached, generation) = store.sessionCache.find(accessHash, now: now)
        if let cached { return Authenticated(user: cached.user, access: cached.access, assurance: cached.assurance) }
        guard let found = try read(accessHash: accessHash, now: now) else { return nil }
        store.sessionCache.keep(found, for: accessHash, readAt: generation)
        return Authenticated(user: found.user, access: found.access, assurance: found.assurance)
    }

    /// `unsafeRead` skips the BEGIN/COMMIT around it: a single SELECT already reads one snapshot.
    private func read(accessHash: String, now: Double) throws -> SessionLookupCache.Entry? {
        try store.pool.unsafeRead { db in
            guard
                let row = try Row.fetchOne(
                    db.cachedStatement(
                        sql: """
                            SELECT users.*, sessions.access AS session_access,
                                sessions.assurance AS session_assurance,
                                sessions.access_expires_at AS session_expires_at FROM sessions
                            JOIN users ON users.id = sessions.user_id
                            WHERE sessions.access_hash = ? AND sessions.revoked = 0 AND sessions.access_expires_at > ?
                            AND users.deleted_at IS NULL
                            """),
                    arguments: [accessHash, now])
            else { return nil }
            return SessionLookupCache.Entry(
                user: try UserRecord(row: row), access: try row.decode(forColumn: "session_access"),
                assurance: try row.decode(forColumn: "session_assurance"),
                accessExpiresAt: try row.decode(forColumn: "session_expires_at"))
        }
    }

    /// What presenting a refresh token came to.
    private enum Presented {
        case rotated(SessionTokens)
        /// Presented again within `reuseInterval` while the pair it was rotated into is still live.
        case retried(SessionTokens)
        /// Already rotated once: someone holds a copy, so the family it came from has ended.
        case reused
        /// Its session was signed out from another device (issue 30).
        case revoked
        case invalid
    }

    struct Refreshed {
        var tokens: SessionTokens
        /// The rule the journal names: a rotation, or the same pair again within the reuse interval.
        var rule: Rule
    }

    func refresh(_ refreshToken: String) async throws -> Refreshed {
        let now = clock.now()
        let fresh = SessionTokens(
            userId: "", accessToken: Secrets.token(prefix: "at_"),
            accessExpiresAt: now.addingTimeInterval(SessionRules.accessLifetime),
            refreshToken: Secrets.token(prefix: "rt_"),
            refreshExpiresAt: now.addingTimeInterval(SessionRules.refreshLifetime))
        let sealer = store.refreshSealer
        let presented: Presented = try await store.pool.write { db in
            try store.retention.pruneIfDue(db, now: now)
            let oldHash = store.digest(refreshToken)
            // Not kept: a session signed out from another device still refreshes, though its access token is refused.
            let signedOutRefreshes =
                !RulePolicy.current.enforces(.sessionSignedOut, .refreshTokensEnd)
                || !RulePolicy.current.enforces(.sessionSignedOutOthers, .refreshTokensEnd)
            if let live = try SessionRecord.fetchOne(
                db,
                sql: """
                    SELECT * FROM sessions WHERE refresh_hash = ? AND (revoked = 0 OR ?) AND refresh_expires_at > ?
                    """,
                arguments: [oldHash, signedOutRefreshes, now.unix])
            {
                var next = fresh
                next.userId = live.userId
                ContractScope.current?.capture?.setUser(live.userId)
                // Rotation: the used refresh token and its access token die with this call; the used
                // token's digest is kept for as long as it would have lived, to recognise a replay, and the
                // new pair sealed for the reuse interval, to answer a retry with it.
                if RulePolicy.current.enforces(.sessionRefreshed) { try live.delete(db) }
                try SpentRefreshTokenRecord(
                    refreshHash: oldHash, familyId: live.familyId, userId: next.userId,
                    expiresAt: live.refreshExpiresAt,
                    spentAt: now.unix, successorAccessHash: store.digest(next.accessToken),
                    successorSealed: try SealedPair(next).sealed(with: sealer)
                ).insert(db)
                // A refreshed limited session stays limited, and an aal1 one aal1: rotation must be no way out
                // of a recovery, nor past a second factor. Not kept: the new pair has full access.
                let access = RulePolicy.current.enforces(.sessionRefreshed, .limitedStaysLimited) ? live.access : .full
                try Self.insert(
                    db, digest: store.digest, next, family: live.familyId, deviceId: live.deviceId, access: access,
                    assurance: live.assurance)
                try SessionListService.seen(
                    db, family: live.familyId, address: ContractScope.current?.remoteAddress, now: now)
                return .rotated(next)
            }
            if try Bool.fetchOne(
                db, sql: "SELECT EXISTS(SELECT 1 FROM sessions WHERE refresh_hash = ? AND revoked = 1)",
                arguments: [oldHash]) ?? false
            {
                return .revoked
            }
            guard
                let spent = try SpentRefreshTokenRecord.fetchOne(
                    db, sql: "SELECT * FROM spent_refresh_tokens WHERE refresh_hash = ? AND expires_at > ?",
                    arguments: [oldHash, now.unix])
            else { return .invalid }
            if let spentAt = spent.spentAt, now.unix - spentAt < RefreshRules.reuseInterval,
                let successor = spent.successorAccessHash,
                try Bool.fetchOne(
                    db, sql: "SELECT EXISTS(SELECT 1 FROM sessions WHERE access_hash = ? AND revoked = 0)",
                    arguments: [successor]) ?? false,
                let pair = SealedPair.open(spent.successorSealed, with: sealer),
                RulePolicy.current.enforces(.sessionRefreshRetried)
            {
                return .retried(pair)
            }
            if RulePolicy.current.enforces(.sessionRefreshReused) {
                let families = try Row.fetchAll(
                    db, sql: "SELECT DISTINCT family_id, device_id FROM sessions WHERE family_id = ?",
                    arguments: [spent.familyId])
                try Self.recordEnds(
                    db, userId: spent.userId, families: families, reason: .refreshTokenReused,
                    rule: .sessionRefreshReused, now: now)
                try db.execute(sql: "DELETE FROM sessions WHERE family_id = ?", arguments: [spent.familyId])
            }
            return .reused
        }
        switch presented {
        case .rotated(let next):
            return Refreshed(tokens: next, rule: .sessionRefreshed)
        case .retried(let pair):
            return Refreshed(tokens: pair, rule: .sessionRefreshRetried)
        case .revoked:
            throw SessionListService.revoked
        case .reused:
            var error = BackendError(
                .unauthorized, "refresh_invalid", "Your session has expired. Sign in again.",
                rule: .sessionRefreshReused)
            error.detail.reason = SessionEndReason.refreshTokenReused.rawValue
            throw error
        case .invalid:
            throw try await Self.endedError(
                BackendError(
                    .unauthorized, "refresh_invalid", "Your session has expired. Sign in again.",
                    rule: .sessionRefreshInvalid), store: store, column: "refresh_hash", store.digest(refreshToken))
        }
    }

    /// The pair a rotation issued, as sealed for the reuse interval.
    private struct SealedPair: Codable {
        var userId: String
        var accessToken: String
        var accessExpiresAt: Double
        var refreshToken: String
        var refreshExpiresAt: Double

        init(_ tokens: SessionTokens) {
            userId = tokens.userId
            accessToken = tokens.accessToken
            accessExpiresAt = tokens.accessExpiresAt.unix
            refreshToken = tokens.refreshToken
            refreshExpiresAt = tokens.refreshExpiresAt.unix
        }

        func sealed(with sealer: Sealer) throws -> Data { try sealer.seal(JSONEncoder().encode(self)) }

        static func open(_ sealed: Data?, with sealer: Sealer) -> SessionTokens? {
            guard let data = sealed.flatMap(sealer.open),
                let pair = try? JSONDecoder().decode(SealedPair.self, from: data)
            else { return nil }
            return SessionTokens(
                userId: pair.userId, accessToken: pair.accessToken, accessExpiresAt: Date(unix: pair.accessExpiresAt),
                refreshToken: pair.refreshToken, refreshExpiresAt: Date(unix: pair.refreshExpiresAt))
        }
    }

    /// Logging out ends this device's session: the request's own session and every other one of its family
    /// (none in normal use, since rotation replaces the row). The user's other sign-ins stay.
    func logout(_ request: Request) async throws {
        // A session awaiting its second factor may give up and sign out.
        let user = try await authenticate(request, firstFactor: .secondStepOrLogout)
        guard let accessHash = accessHash(of: request) else { throw BackendError.unauthorized }
        let now = clock.now()
        try await store.pool.write { db in
            let families = try Row.fetchAll(
                db, sql: "SELECT family_id, device_id FROM sessions WHERE access_hash = ?", arguments: [accessHash])
            try Self.recordEnds(
                db, userId: user.id, families: families, reason: .loggedOut, rule: .sessionLogout, now: now)
            guard RulePolicy.current.enforces(.sessionLogout) else {
                // Not kept: the access token ends, the refresh token of the sign-in lives on.
                try db.execute(
                    sql: "UPDATE sessions SET access_expires_at = 0 WHERE access_hash = ?", arguments: [accessHash])
                return
            }
            try db.execute(
                sql: "DELETE FROM sessions WHERE family_id = (SELECT family_id FROM sessions WHERE access_hash = ?)",
                arguments: [accessHash])
        }
    }
}
