import AccessAPI
import AccessCore
import Foundation
import GRDB
import Hummingbird

/// Active sessions (issue 30), as Clerk's "Active devices" or Ory Kratos' session API: the account's live
/// sign-ins, one signed out, or every other one. A session here is a sign-in (a refresh family), not one
/// token: rotation replaces the token row, the family and its `sign_ins` row stay. A signed-out family's
/// rows are kept marked `revoked` until its refresh token would have expired, so the device's next call,
/// refresh included, is answered 401 `session_revoked` instead of a bare 401.
struct SessionListService: Sendable {
    /// Last seen moves at most this often per token from one address (`LastSeenThrottle`): a minute is finer
    /// than the list shows ("active 5 min ago").
    static let lastSeenStep: TimeInterval = 60

    let store: Store
    let clock: BackendClock

    static let revoked: BackendError = {
        var error = BackendError(
            .unauthorized, "session_revoked", "You were signed out from another device. Sign in again.",
            rule: .sessionRevoked)
        error.detail.reason = SessionEndReason.signedOutByDevice.rawValue
        return error
    }()

    static let notFound = BackendError(
        .notFound, .notFound, "That session has ended or is not yours.", rule: .sessionNotFound)

    static let current = BackendError(
        .conflict, "current_session", "This is the session of this device: log out instead.",
        rule: .sessionCurrent)

    /// `GET /me/sessions`: this device's sign-in first, then the others by last seen, newest first.
    func list(user: UserRecord, request: Request) async throws -> ActiveSessions {
        let own = SessionService(store: store, clock: clock).accessHash(of: request)
        let now = clock.now()
        return try await store.pool.read { db in
            let rows = try Row.fetchAll(
                db,
                sql: """
                    SELECT sign_ins.*, devices.device_name, devices.system_name, devices.system_version,
                        EXISTS(SELECT 1 FROM sessions WHERE access_hash = ? AND family_id = sign_ins.family_id)
                            AS is_current
                    FROM sign_ins LEFT JOIN devices ON devices.id = sign_ins.device_id
                    WHERE sign_ins.user_id = ? AND EXISTS(
                        SELECT 1 FROM sessions WHERE sessions.family_id = sign_ins.family_id AND revoked = 0
                        AND refresh_expires_at > ?)
                    ORDER BY is_current DESC, sign_ins.last_seen_at DESC, sign_ins.created_at DESC,
                        sign_ins.family_id
                    """,
                arguments: [own, user.id, now.unix])
            return ActiveSessions(sessions: try rows.map(Self.session))
        }
    }

    private static func session(_ row: Row) throws -> ActiveSession {
        let name: String? = row["device_name"]
        let device = try name.map {
            SessionDevice(
                deviceName: $0, systemName: try row.decode(forColumn: "system_name"),
                systemVersion: try row.decode(forColumn: "system_version"))
        }
        return ActiveSession(
            id: row["family_id"], device: device, method: row["method"],
            firstSeenAt: Date(unix: row["created_at"]), lastSeenAt: Date(unix: row["last_seen_at"]),
            clientAddress: row["client_address"], isCurrent: row["is_current"])
    }

    /// `DELETE /me/sessions/{id}`: one other sign-in of the caller's, signed out, behind "Verify it's you" like
    /// revoke-others. The grant is checked before the id, so a caller without one learns nothing about which
    /// ids are live sessions (no 404 or 409 before the 403).
    func signOut(user: UserRecord, request: Request, id: String, reauthToken: String?) async throws {
        let own = SessionService(store: store, clock: clock).accessHash(of: request)
        let now = clock.now()
        try await store.pool.write { db in
            let caller = try Self.liveFamily(db, accessHash: own)
            let user = try AccountService.current(db, id: user.id)
            try ReauthService.require(
                db, digest: store.digest, proof: ReauthProof(token: reauthToken, accessHash: own), user: user,
                target: nil, now: now)
            guard
                try Bool.fetchOne(
                    db,
                    sql: """
                        SELECT EXISTS(SELECT 1 FROM sessions WHERE family_id = ? AND user_id = ? AND revoked = 0
                            AND refresh_expires_at > ?)
                        """,
                    arguments: [id, user.id, now.unix]) ?? false
            else { throw Self.notFound }
            guard id != caller else { throw Self.current }
            if RulePolicy.current.enforces(.sessionSignedOut) {
                let families = try Row.fetchAll(
                    db, sql: "SELECT DISTINCT family_id, device_id FROM sessions WHERE family_id = ?", arguments: [id])
                try SessionService.recordEnds(
                    db, userId: user.id, families: families, reason: .signedOutByDevice, rule: .sessionSignedOut,
                    now: now)
                try db.execute(sql: "UPDATE sessions SET revoked = 1 WHERE family_id = ?", arguments: [id])
            }
            try Self.notify(db, userId: user.id, now: now)
        }
    }

    /// `POST /me/sessions/revoke-others`: every sign-in but the caller's, behind "Verify it's you". Checked and
    /// done in one write transaction: of two devices doing it at once, the second finds itself signed out
    /// (401 `session_revoked`) and signs nobody out, so exactly the first caller's session remains.
    func signOutOthers(user: UserRecord, request: Request, reauthToken: String?) async throws -> SessionsSignedOut {
        let own = SessionService(store: store, clock: clock).accessHash(of: request)
        let now = clock.now()
        return try await store.pool.write { db in
            let caller = try Self.liveFamily(db, accessHash: own)
            let user = try AccountService.current(db, id: user.id)
            try ReauthService.require(
                db, digest: store.digest, proof: ReauthProof(token: reauthToken, accessHash: own), user: user,
                target: nil, now: now)
            let ended =
                try Int.fetchOne(
                    db,
                    sql: """
                        SELECT COUNT(DISTINCT family_id) FROM sessions
                        WHERE user_id = ? AND family_id != ? AND revoked = 0 AND refresh_expires_at > ?
                        """,
                    arguments: [user.id, caller, now.unix]) ?? 0
            if RulePolicy.current.enforces(.sessionSignedOutOthers) {
                let families = try Row.fetchAll(
                    db,
                    sql: """
                        SELECT DISTINCT family_id, device_id FROM sessions
                        WHERE user_id = ? AND family_id != ? AND revoked = 0
                        """,
                    arguments: [user.id, caller])
                try SessionService.recordEnds(
                    db, userId: user.id, families: families, reason: .signedOutByDevice,
                    rule: .sessionSignedOutOthers, now: now)
                try db.execute(
                    sql: "UPDATE sessions SET revoked = 1 WHERE user_id = ? AND family_id != ? AND revoked = 0",
                    arguments: [user.id, caller])
            }
            if ended > 0 { try Self.notify(db, userId: user.id, now: now) }
            return SessionsSignedOut(signedOut: ended)
        }
    }

    /// The caller's sign-in, read again inside the write: authenticated before it, it may have been signed out
    /// by a transaction that committed in between.
    private static func liveFamily(_ db: Database, accessHash: String?) throws -> String {
        guard
            let session = try accessHash.flatMap({
                try SessionRecord.fetchOne(db, sql: "SELECT * FROM sessions WHERE access_hash = ?", arguments: [$0])
            })
        else { throw BackendError.unauthorized }
        guard !session.revoked else { throw revoked }
        return session.familyId
    }

    /// `DELETE /_admin/sessions/{id}` (issue 49 item 3): sign-in `id` signed out as another of its account's devices
    /// would, without a grant, so QA can watch a device lose its session and say why.
    func signOutByAdmin(id: String) async throws {
        let now = clock.now()
        try await store.pool.write { db in
            guard
                let userId = try String.fetchOne(
                    db,
                    sql: """
                        SELECT user_id FROM sessions WHERE family_id = ? AND revoked = 0 AND refresh_expires_at > ?
                        LIMIT 1
                        """,
                    arguments: [id, now.unix])
            else { throw BackendError.notFound("No live sign-in has this id.") }
            let families = try Row.fetchAll(
                db, sql: "SELECT DISTINCT family_id, device_id FROM sessions WHERE family_id = ?", arguments: [id])
            try SessionService.recordEnds(
                db, userId: userId, families: families, reason: .signedOutByDevice, rule: .sessionSignedOut, now: now)
            try db.execute(sql: "UPDATE sessions SET revoked = 1 WHERE family_id = ?", arguments: [id])
            try Self.notify(db, userId: userId, now: now)
        }
    }

    /// Seed 003's security events: the account's email hears that a device was signed out from another.
    private static func notify(_ db: Database, userId: String, now: Date) throws {
        guard let email = try AccountService.current(db, id: userId).email else { return }
        try OutboxService.send(
            db, .init(channel: .email, recipient: email, kind: .sessionSignedOutNotice, purpose: "sessions"), now: now)
    }

    /// An authenticated call moves its sign-in's last seen and address, at most once a `lastSeenStep`.
    func touch(accessHash: String, address: String?, now: Date) async throws {
        guard store.lastSeen.shouldWrite(accessHash, address: address, now: now.unix, step: Self.lastSeenStep)
        else { return }
        try await store.pool.write { db in
            guard
                let family = try String.fetchOne(
                    db, sql: "SELECT family_id FROM sessions WHERE access_hash = ?", arguments: [accessHash])
            else { return }
            try Self.seen(db, family: family, address: address, now: now)
        }
    }

    /// A refresh or a call of this sign-in, now; the clock never moves it back.
    static func seen(_ db: Database, family: String, address: String?, now: Date) throws {
        try db.execute(
            sql: """
                UPDATE sign_ins SET last_seen_at = MAX(last_seen_at, ?), client_address = COALESCE(?, client_address)
                WHERE family_id = ?
                """,
            arguments: [now.unix, address, family])
    }
}
