import AccessAPI
import AccessBackendTesting
import AccessCore
import Foundation
import GRDB
import Testing

@testable import AccessBackend

/// Issue 49 items 1 to 3: the backend's event log, written by the road that makes each decision, read back as
/// one person's timeline (`GET /_admin/timeline`), and the reason an ended session's next call is given.
@Suite struct TimelineTests {
    static func timeline(_ backend: TestBackend, _ query: String) async throws -> Timeline {
        let reply = try await backend.get("/_admin/timeline?" + query)
        #expect(reply.status == 200, "\(String(decoding: reply.data, as: UTF8.self))")
        return try reply.decode(Timeline.self)
    }

    static func kinds(_ timeline: Timeline) -> [String] { timeline.events.map(\.kind) }

    static func escaped(_ text: String) -> String {
        text.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? text
    }

    // MARK: - Codes

    @Test func aSignInByCodeIsSentWrongAcceptedSignedInAndStarted() async throws {
        try await TestBackend.with(scenario: "returning-user") { backend in
            let challenge: SignInChallenge = try await SignInCodeTests.start(backend, phone: "+995511100000").decode()
            let code = try await backend.lastCode(to: "+995511100000")
            let wrong = code == "000000" ? "111111" : "000000"
            #expect(try await SignInCodeTests.verify(backend, challenge.challengeId, wrong).status == 401)
            let signedIn: SignedIn = try await SignInCodeTests.verify(backend, challenge.challengeId, code).decode()

            let timeline = try await Self.timeline(backend, "user=" + Self.escaped("+995511100000"))
            #expect(timeline.userId == "usr_athlete")
            let kinds = Self.kinds(timeline)
            #expect(kinds.first == "code_sent")
            #expect(
                kinds.filter {
                    ["code_sent", "code_wrong", "code_accepted", "session_started", "signed_in"].contains($0)
                }
                    == ["code_sent", "code_wrong", "code_accepted", "session_started", "signed_in"])
            let sent = try #require(timeline.events.first)
            #expect(sent.detail.additionalProperties["channel"] == "sms")
            #expect(sent.detail.additionalProperties["purpose"] == "sign_in")
            #expect(sent.subject == "+995511100000")
            #expect(sent.clientAddress == "127.0.0.1")
            let wrongEvent = try #require(timeline.events.first { $0.kind == "code_wrong" })
            #expect(wrongEvent.detail.additionalProperties["tries_left"] == "4")
            #expect(wrongEvent.rule == Rule.signInCodeIncorrect.rawValue)
            let signedInEvent = try #require(timeline.events.first { $0.kind == "signed_in" })
            #expect(signedInEvent.detail.additionalProperties["method"] == "phone_code")
            #expect(signedInEvent.detail.additionalProperties["new_account"] == "no")
            #expect(signedInEvent.deviceId == signedIn.deviceId)
            let started = try #require(timeline.events.first { $0.kind == "session_started" })
            let sessions: ActiveSessions = try await backend.get(
                "/me/sessions", token: signedIn.session.accessToken
            ).decode()
            #expect(started.sessionId == sessions.sessions.first?.id)
        }
    }

    @Test func theFourthWrongCodeLeavesATryAndTheFifthKillsIt() async throws {
        try await TestBackend.with(scenario: "returning-user") { backend in
            let challenge: SignInChallenge = try await SignInCodeTests.start(backend, phone: "+995511100000").decode()
            let code = try await backend.lastCode(to: "+995511100000")
            let wrong = code == "000000" ? "111111" : "000000"
            for _ in 1...4 { _ = try await SignInCodeTests.verify(backend, challenge.challengeId, wrong) }
            var timeline = try await Self.timeline(backend, "user=%2B995511100000&kinds=code_wrong,code_dead")
            #expect(Self.kinds(timeline) == ["code_wrong", "code_wrong", "code_wrong", "code_wrong"])
            #expect(timeline.events.last?.detail.additionalProperties["tries_left"] == "1")
            _ = try await SignInCodeTests.verify(backend, challenge.challengeId, wrong)
            timeline = try await Self.timeline(backend, "user=%2B995511100000&kinds=code_wrong,code_dead")
            #expect(timeline.events.last?.kind == "code_dead")
            #expect(timeline.events.last?.detail.additionalProperties["tries_left"] == "0")
        }
    }

    @Test func aCodeWorksUntilItsLifetimeAndAfterItIsAnExpiredTry() async throws {
        try await TestBackend.with(scenario: "returning-user") { backend in
            let first: SignInChallenge = try await SignInCodeTests.start(backend, phone: "+995511100000").decode()
            _ = try await backend.advance(seconds: CodeRules.lifetime)
            let code = try await backend.lastCode(to: "+995511100000")
            #expect(try await SignInCodeTests.verify(backend, first.challengeId, code).status == 410)
            var timeline = try await Self.timeline(backend, "user=%2B995511100000&kinds=code_expired,code_accepted")
            #expect(Self.kinds(timeline) == ["code_expired"])
            #expect(timeline.events.first?.rule == Rule.otpExpired.rawValue)

            let second: SignInChallenge = try await SignInCodeTests.start(backend, phone: "+995511100000").decode()
            _ = try await backend.advance(seconds: CodeRules.lifetime - 1)
            let fresh = try await backend.lastCode(to: "+995511100000")
            #expect(try await SignInCodeTests.verify(backend, second.challengeId, fresh).status == 200)
            timeline = try await Self.timeline(backend, "user=%2B995511100000&kinds=code_expired,code_accepted")
            #expect(Self.kinds(timeline) == ["code_expired", "code_accepted"])
        }
    }

    @Test func aResendInsideTheCooldownIsARefusedSendAndAfterItASend() async throws {
        try await TestBackend.with(scenario: "returning-user") { backend in
            let challenge: SignInChallenge = try await SignInCodeTests.start(backend, phone: "+995511100000").decode()
            _ = try await backend.advance(seconds: SendLimits.cooldown - 1)
            let early = try await backend.post(
                "/auth/sign-in/code/resend", SignInChallengeRef(challengeId: challenge.challengeId))
            #expect(early.status == 429)
            var timeline = try await Self.timeline(backend, "user=%2B995511100000&kinds=code_sent,send_refused")
            #expect(Self.kinds(timeline) == ["code_sent", "send_refused"])
            let refused = try #require(timeline.events.last)
            #expect(refused.detail.additionalProperties["limit"] == "cooldown")
            #expect(refused.detail.additionalProperties["retry_after"] == "1")
            #expect(refused.userId == "usr_athlete")

            _ = try await backend.advance(seconds: 1)
            let onTime = try await backend.post(
                "/auth/sign-in/code/resend", SignInChallengeRef(challengeId: challenge.challengeId))
            #expect(onTime.status == 202)
            timeline = try await Self.timeline(backend, "user=%2B995511100000&kinds=code_sent,send_refused")
            #expect(Self.kinds(timeline) == ["code_sent", "send_refused", "code_sent"])
        }
    }

    // MARK: - Sessions and why they ended

    @Test func logoutEndsTheSessionAsLoggedOutAndItsNextCallSaysSo() async throws {
        try await TestBackend.with { backend in
            let tokens = try await backend.signIn()
            #expect(try await backend.send(.POST, "/auth/logout", token: tokens.accessToken).status == 204)
            let call = try await backend.get("/me/auth-methods", token: tokens.accessToken)
            #expect(call.status == 401)
            #expect(call.error?.code == "unauthorized")
            #expect(call.error?.reason == "logged_out")
            let refresh = try await backend.post("/auth/refresh", RefreshBody(refreshToken: tokens.refreshToken))
            #expect(refresh.error?.reason == "logged_out")
            let timeline = try await Self.timeline(backend, "user=usr_athlete&kinds=session_started,session_ended")
            #expect(Self.kinds(timeline) == ["session_started", "session_ended"])
            #expect(timeline.events.last?.detail.additionalProperties["reason"] == "logged_out")
            #expect(timeline.events.last?.sessionId == timeline.events.first?.sessionId)
        }
    }

    @Test func aPasswordChangeEndsTheOtherSessionsAsPasswordChanged() async throws {
        try await TestBackend.with { backend in
            let here = try await backend.signIn()
            let other = try await backend.signIn()
            let grant = try await backend.phoneGrant(token: here.accessToken)
            let changed = try await backend.post(
                "/auth/password/change", ChangePasswordBody(newPassword: "battery-staple-77"), token: here.accessToken,
                reauth: grant)
            #expect(changed.status == 200)
            let call = try await backend.get("/me/auth-methods", token: other.accessToken)
            #expect(call.status == 401)
            #expect(call.error?.reason == "password_changed")
            #expect(try await backend.get("/me/auth-methods", token: here.accessToken).status == 200)
            let timeline = try await Self.timeline(
                backend, "user=usr_athlete&kinds=password_changed,session_ended,notice_sent")
            #expect(Self.kinds(timeline) == ["password_changed", "session_ended", "notice_sent"])
            #expect(timeline.events[1].detail.additionalProperties["reason"] == "password_changed")
            #expect(timeline.events[2].detail.additionalProperties["message"] == "password_changed_notice")
        }
    }

    @Test func aSessionSignedOutFromAnotherDeviceSaysSo() async throws {
        try await TestBackend.with { backend in
            let own = try await backend.signIn()
            let target = try await backend.signIn()
            let sessions: ActiveSessions = try await backend.get("/me/sessions", token: own.accessToken).decode()
            let ownSessions: ActiveSessions = try await backend.get("/me/sessions", token: target.accessToken).decode()
            let targetId = try #require(ownSessions.sessions.first { $0.isCurrent }?.id)
            #expect(sessions.sessions.count == 2)
            let grant = try await backend.passwordGrant(token: own.accessToken).reauthToken
            #expect(
                try await backend.send(.DELETE, "/me/sessions/\(targetId)", token: own.accessToken, reauth: grant)
                    .status == 204)
            let call = try await backend.get("/me/auth-methods", token: target.accessToken)
            #expect(call.error?.code == "session_revoked")
            #expect(call.error?.reason == "signed_out_by_device")
            let timeline = try await Self.timeline(backend, "user=usr_athlete&kinds=session_ended")
            #expect(timeline.events.map(\.sessionId) == [targetId])
            #expect(timeline.events.first?.detail.additionalProperties["reason"] == "signed_out_by_device")
        }
    }

    @Test func aReusedRefreshTokenEndsItsSignInAsReused() async throws {
        try await TestBackend.with { backend in
            let first = try await backend.signIn()
            #expect(
                try await backend.post("/auth/refresh", RefreshBody(refreshToken: first.refreshToken)).status == 200)
            _ = try await backend.advance(seconds: RefreshRules.reuseInterval)
            let replay = try await backend.post("/auth/refresh", RefreshBody(refreshToken: first.refreshToken))
            #expect(replay.status == 401)
            #expect(replay.error?.reason == "refresh_token_reused")
            let timeline = try await Self.timeline(backend, "user=usr_athlete&kinds=session_ended")
            #expect(timeline.events.map { $0.detail.additionalProperties["reason"] } == ["refresh_token_reused"])
        }
    }

    @Test func theAdminSignOutEndsThisDeviceAsAnotherDeviceWould() async throws {
        try await TestBackend.with { backend in
            let tokens = try await backend.signIn()
            let sessions: ActiveSessions = try await backend.get("/me/sessions", token: tokens.accessToken).decode()
            let own = try #require(sessions.sessions.first { $0.isCurrent })
            #expect(try await backend.send(.DELETE, "/_admin/sessions/\(own.id)").status == 204)
            let call = try await backend.get("/me/auth-methods", token: tokens.accessToken)
            #expect(call.error?.code == "session_revoked")
            #expect(call.error?.reason == "signed_out_by_device")
            #expect(try await backend.send(.DELETE, "/_admin/sessions/\(own.id)").status == 404)
            #expect(try await backend.send(.DELETE, "/_admin/sessions/sf_nobody").status == 404)
            let timeline = try await Self.timeline(backend, "user=usr_athlete&kinds=session_ended")
            #expect(timeline.events.map(\.sessionId) == [own.id])
        }
    }

    // MARK: - Links and the email

    static func lastLink(_ backend: TestBackend, to address: String, kind: String) async throws -> String {
        guard let token = try await backend.outbox().last(where: { $0.to == address && $0.kind == kind })?.token else {
            throw TestFailure("no \(kind) to \(address)")
        }
        return token
    }

    @Test func anEmailChangeLinkIsRefusedAfterItsLifetimeAndOpenedWithinIt() async throws {
        try await TestBackend.with { backend in
            let session = try await backend.signIn()
            let grant = try await backend.passwordGrant(token: session.accessToken).reauthToken
            func request() async throws {
                let sent = try await backend.post(
                    "/auth/email/request-change", EmailChangeBody(email: "new.email@gmail.com"),
                    token: session.accessToken, reauth: grant)
                #expect(sent.status == 202)
            }
            try await request()
            let late = try await Self.lastLink(backend, to: "new.email@gmail.com", kind: "email_verify_link")
            _ = try await backend.advance(seconds: LinkLifetimes.emailChange)
            #expect(try await backend.post("/auth/email/verify", EmailLinkConfirmBody(token: late)).status == 410)
            let kinds = "kinds=link_sent,link_opened,link_expired,method_changed,session_ended"
            var timeline = try await Self.timeline(backend, "user=usr_athlete&" + kinds)
            #expect(Self.kinds(timeline) == ["link_sent", "link_expired"])
            #expect(timeline.events[0].subject == "new.email@gmail.com")
            #expect(timeline.events[1].detail.additionalProperties["code"] == "link_expired")

            let fresh = try await backend.passwordGrant(token: session.accessToken).reauthToken
            let again = try await backend.post(
                "/auth/email/request-change", EmailChangeBody(email: "new.email@gmail.com"),
                token: session.accessToken, reauth: fresh)
            #expect(again.status == 202)
            let link = try await Self.lastLink(backend, to: "new.email@gmail.com", kind: "email_verify_link")
            _ = try await backend.advance(seconds: LinkLifetimes.emailChange - 1)
            #expect(try await backend.post("/auth/email/verify", EmailLinkConfirmBody(token: link)).status == 200)
            let revert = try await Self.lastLink(backend, to: "jdoe@mail.com", kind: "email_changed_notice")
            #expect(try await backend.post("/auth/email/revert", EmailLinkConfirmBody(token: revert)).status == 200)
            timeline = try await Self.timeline(backend, "user=usr_athlete&" + kinds)
            let tail = Array(Self.kinds(timeline).dropFirst(2))
            // Opening the link applies the change, whose notice to the old address carries the way back.
            #expect(
                tail == [
                    "link_sent", "link_opened", "link_sent", "method_changed", "link_opened", "method_changed",
                    "session_ended", "session_ended",
                ])
            let changed = timeline.events[5]
            #expect(changed.detail.additionalProperties["previous"] == "jdoe@mail.com")
            #expect(changed.rule == Rule.emailChanged.rawValue)
            #expect(timeline.events[7].detail.additionalProperties["reverted"] == "yes")
            #expect(timeline.events.last?.detail.additionalProperties["reason"] == "email_reverted")
        }
    }

    // MARK: - Locks

    @Test func theThirdWrongPasswordStartsALockAndTheSecondDoesNot() async throws {
        try await TestBackend.with(scenario: "returning-user") { backend in
            func login() async throws -> Reply {
                try await backend.post(
                    "/auth/login",
                    PasswordLoginBody(email: "jdoe@mail.com", password: "wrong-horse-1", device: SignInCodeTests.device)
                )
            }
            for _ in 1...2 { #expect(try await login().status == 401) }
            var timeline = try await Self.timeline(backend, "user=jdoe%40mail.com&kinds=sign_in_refused,lock_started")
            #expect(Self.kinds(timeline) == ["sign_in_refused", "sign_in_refused"])
            #expect(timeline.events.first?.rule == Rule.loginCredentialsInvalid.rawValue)
            #expect(try await login().status == 429)
            timeline = try await Self.timeline(backend, "user=jdoe%40mail.com&kinds=sign_in_refused,lock_started")
            #expect(Self.kinds(timeline) == ["sign_in_refused", "sign_in_refused", "lock_started", "sign_in_refused"])
            #expect(timeline.userId == "usr_athlete")
            // The lock's end is on its event: the first lock lasts `LoginLockRules.firstLock`.
            let lock = try #require(timeline.events.first { $0.kind == "lock_started" })
            let until = try #require(
                lock.detail.additionalProperties["until"].flatMap { try? Date($0, strategy: .iso8601) })
            #expect(abs(until.timeIntervalSince(lock.at) - LoginLockRules.firstLock) < 1)
        }
    }

    // MARK: - The timeline's order and filters

    @Test func theTimelineIsOldestFirstAndFiltersBySinceKindsAndLimit() async throws {
        try await TestBackend.with { backend in
            let tokens = try await backend.signIn()
            _ = try await backend.advance(seconds: 60)
            let later = try await backend.signIn()
            _ = try await backend.advance(seconds: 60)
            #expect(try await backend.send(.POST, "/auth/logout", token: later.accessToken).status == 204)
            _ = tokens

            let all = try await Self.timeline(backend, "user=usr_athlete")
            #expect(Self.kinds(all) == ["session_started", "session_started", "session_ended"])
            #expect(all.events.map(\.at) == all.events.map(\.at).sorted())
            #expect(all.events.map(\.id) == all.events.map(\.id).sorted())

            let since = ISO8601DateFormatter().string(from: all.events[1].at)
            let recent = try await Self.timeline(backend, "user=usr_athlete&since=" + Self.escaped(since))
            #expect(Self.kinds(recent) == ["session_started", "session_ended"])
            let ended = try await Self.timeline(backend, "user=usr_athlete&kinds=session_ended")
            #expect(Self.kinds(ended) == ["session_ended"])
            let newest = try await Self.timeline(backend, "user=usr_athlete&limit=2")
            #expect(newest.events.map(\.id) == Array(all.events.map(\.id).suffix(2)))
            // The same person by phone and by email.
            #expect(try await Self.timeline(backend, "user=%2B995511100000").events.map(\.id) == all.events.map(\.id))
            #expect(try await Self.timeline(backend, "user=JDoe%40mail.com").events.map(\.id) == all.events.map(\.id))
        }
    }

    @Test func aBadQueryIsAClearRefusal() async throws {
        try await TestBackend.with { backend in
            let unknownKind = try await backend.get("/_admin/timeline?user=usr_athlete&kinds=code_sent,nonsense")
            #expect(unknownKind.status == 422)
            #expect(unknownKind.error?.code == "invalid_parameter")
            let badSince = try await backend.get("/_admin/timeline?user=usr_athlete&since=yesterday")
            #expect(badSince.status == 422)
            #expect(try await backend.get("/_admin/timeline?user=usr_athlete&limit=10001").status == 422)
            #expect(try await backend.get("/_admin/timeline?user=usr_athlete&limit=10000").status == 200)
            let unknownUser = try await Self.timeline(backend, "user=usr_nobody")
            #expect(unknownUser.events.isEmpty)
            let noUser = try await backend.get("/_admin/timeline")
            #expect(noUser.status == 400)
            // An address without an account answers its own (none here).
            let stranger = try await Self.timeline(backend, "user=stranger%40mail.com")
            #expect(stranger.userId == nil)
            #expect(stranger.events.isEmpty)
        }
    }

    // MARK: - The log itself

    @Test func theOldestEventsGoPastTheCap() async throws {
        try await TestBackend.with { backend in
            let store = backend.running.store
            try await store.pool.write { db in
                for _ in 0..<3 {
                    try EventLog.append(db, .init(kind: .noticeSent, userId: "usr_cap"), now: Date(unix: 1))
                }
                try db.execute(
                    sql: "UPDATE sqlite_sequence SET seq = ? WHERE name = 'events'", arguments: [EventLog.capPerWorld])
                try EventLog.append(db, .init(kind: .codeSent, userId: "usr_cap"), now: Date(unix: 2))
            }
            let left = try await store.pool.read { db in
                try String.fetchAll(db, sql: "SELECT kind FROM events WHERE user_id = 'usr_cap' ORDER BY id")
            }
            // Id cap + 1 keeps ids 2 … cap + 1: the first event went, the two after it stay.
            #expect(left == ["notice_sent", "notice_sent", "code_sent"])
        }
    }
}
