import AccessAPI
import AccessBackendTesting
import Foundation
import Testing

/// Issue 30: the account's live sessions, one per sign-in; one signed out, or every other one behind "Verify
/// it's you"; a signed-out device's next call is 401 `session_revoked`, refresh included.
@Suite struct ActiveSessionsTests {
    static let publicKey = Data(repeating: 7, count: 32).base64EncodedString()

    static func device(_ name: String, _ system: String, _ version: String) -> DeviceInfo {
        DeviceInfo(
            deviceName: name, systemName: system, systemVersion: version, identifier: "id-\(name)",
            publicKey: publicKey)
    }

    static let iPhone = device("Nino's iPhone", "iOS", "18.1")
    static let pixel = device("Pixel 8", "Android", "15")
    static let terminal = device("Terminal", "Linux", "6.1")

    /// A sign-in of the scenario's user from `device`, as the palette's "Sign in from another device" makes it.
    func signIn(_ backend: TestBackend, _ device: DeviceInfo, _ method: SessionMethod) async throws -> SessionTokens {
        try await backend.post("/_admin/sessions", AdminSessionBody(device: device, method: method)).decode()
    }

    func sessions(_ backend: TestBackend, token: String) async throws -> [ActiveSession] {
        try await backend.get("/me/sessions", token: token).decode(ActiveSessions.self).sessions
    }

    func now(_ backend: TestBackend) async throws -> Date {
        try await backend.get("/_admin/clock").decode(ClockState.self).now
    }

    @Test func theListHasEverySignInWithItsFieldsThisDeviceFirstThenNewestFirst() async throws {
        try await TestBackend.with { backend in
            let start = try await now(backend)
            let phone = try await signIn(backend, Self.iPhone, .phoneCode)
            _ = try await backend.advance(seconds: 60)
            let android = try await signIn(backend, Self.pixel, .google)
            _ = try await backend.advance(seconds: 60)
            let own = try await signIn(backend, Self.terminal, .password)
            _ = try await backend.advance(seconds: 300)
            // The iPhone's call moves its last seen past the Pixel's.
            #expect(try await backend.get("/me/auth-methods", token: phone.accessToken).status == 200)

            let list = try await sessions(backend, token: own.accessToken)
            #expect(list.map { $0.device?.deviceName } == ["Terminal", "Nino's iPhone", "Pixel 8"])
            #expect(list.map(\.isCurrent) == [true, false, false])
            #expect(list.map(\.method) == [.password, .phoneCode, .google])
            #expect(list.map { $0.device?.systemName } == ["Linux", "iOS", "Android"])
            #expect(list.map { $0.device?.systemVersion } == ["6.1", "18.1", "15"])
            #expect(list.map(\.firstSeenAt) == [120, 0, 60].map { start.addingTimeInterval($0) })
            #expect(list.map(\.lastSeenAt) == [420, 420, 60].map { start.addingTimeInterval($0) })
            #expect(list.allSatisfy { $0.clientAddress == "127.0.0.1" })
            #expect(Set(list.map(\.id)).count == 3)

            // A refresh rotates the token, not the sign-in: still one entry, seen again.
            _ = try await backend.advance(seconds: 120)
            let rotated: SessionTokens = try await backend.post(
                "/auth/refresh", RefreshBody(refreshToken: android.refreshToken)
            ).decode()
            let again = try await sessions(backend, token: rotated.accessToken)
            #expect(again.count == 3)
            #expect(again.first?.device?.deviceName == "Pixel 8")
            #expect(again.first?.id == list[2].id)
            #expect(again.first?.lastSeenAt == start.addingTimeInterval(540))
        }
    }

    @Test func lastSeenMovesOnceAMinuteOfCalls() async throws {
        try await TestBackend.with { backend in
            let start = try await now(backend)
            let phone = try await signIn(backend, Self.iPhone, .phoneCode)
            let own = try await signIn(backend, Self.terminal, .password)
            func phoneLastSeen() async throws -> Date? {
                try await sessions(backend, token: own.accessToken).first { !$0.isCurrent }?.lastSeenAt
            }
            #expect(try await backend.get("/me/auth-methods", token: phone.accessToken).status == 200)
            _ = try await backend.advance(seconds: 59)
            #expect(try await backend.get("/me/auth-methods", token: phone.accessToken).status == 200)
            #expect(try await phoneLastSeen() == start)
            _ = try await backend.advance(seconds: 1)
            #expect(try await backend.get("/me/auth-methods", token: phone.accessToken).status == 200)
            #expect(try await phoneLastSeen() == start.addingTimeInterval(60))
        }
    }

    @Test func signingOneOutKillsItsAccessAndRefreshAndSaysWhy() async throws {
        try await TestBackend.with { backend in
            let phone = try await signIn(backend, Self.iPhone, .phoneCode)
            let android = try await signIn(backend, Self.pixel, .google)
            let own = try await signIn(backend, Self.terminal, .password)
            let target = try #require(
                try await sessions(backend, token: own.accessToken).first { $0.device?.deviceName == "Nino's iPhone" })

            let grant = try await backend.passwordGrant(token: own.accessToken).reauthToken
            let done = try await backend.send(
                .DELETE, "/me/sessions/\(target.id)", token: own.accessToken, reauth: grant)
            #expect(done.status == 204)
            let call = try await backend.get("/me/auth-methods", token: phone.accessToken)
            #expect(call.status == 401)
            #expect(call.error?.code == "session_revoked")
            let refresh = try await backend.post("/auth/refresh", RefreshBody(refreshToken: phone.refreshToken))
            #expect(refresh.status == 401)
            #expect(refresh.error?.code == "session_revoked")
            #expect(try await backend.get("/me/auth-methods", token: android.accessToken).status == 200)
            let left = try await sessions(backend, token: own.accessToken)
            #expect(left.map { $0.device?.deviceName } == ["Terminal", "Pixel 8"])
            let notices = try await backend.outbox().filter { $0.kind == "session_signed_out_notice" }
            #expect(notices.map(\.to) == ["jdoe@mail.com"])
            #expect(try await lastRule(backend, "/me/sessions/\(target.id)") == "session.signed_out")

            // Gone, someone else's or unknown: 404. This device's own: 409, that is logging out.
            let again = try await backend.send(
                .DELETE, "/me/sessions/\(target.id)", token: own.accessToken, reauth: grant)
            #expect(again.status == 404)
            #expect(again.error?.code == "not_found")
            let unknown = try await backend.send(
                .DELETE, "/me/sessions/sf_unknown", token: own.accessToken, reauth: grant)
            #expect(unknown.status == 404)
            let ownId = try #require(left.first?.id)
            let mine = try await backend.send(.DELETE, "/me/sessions/\(ownId)", token: own.accessToken, reauth: grant)
            #expect(mine.status == 409)
            #expect(mine.error?.code == "current_session")
            #expect(try await backend.get("/me/auth-methods", token: own.accessToken).status == 200)
        }
    }

    /// Signing one device out is as sensitive as signing them all out. The grant is checked before the id, so
    /// without one every id is the same 403: a caller learns neither which ids are live nor which is its own.
    @Test func signingOneOutNeedsVerifyItsYouWithinItsWindow() async throws {
        try await TestBackend.with { backend in
            let phone = try await signIn(backend, Self.iPhone, .phoneCode)
            let android = try await signIn(backend, Self.pixel, .google)
            let own = try await signIn(backend, Self.terminal, .password)
            let listed = try await sessions(backend, token: own.accessToken)
            let phoneId = try #require(listed.first { $0.device?.deviceName == "Nino's iPhone" }?.id)
            let androidId = try #require(listed.first { $0.device?.deviceName == "Pixel 8" }?.id)
            let ownId = try #require(listed.first { $0.isCurrent }?.id)
            for id in [phoneId, ownId, "sf_unknown"] {
                let refused = try await backend.send(.DELETE, "/me/sessions/\(id)", token: own.accessToken)
                #expect(refused.status == 403)
                #expect(refused.error?.code == "reauth_required")
            }
            #expect(try await backend.get("/me/auth-methods", token: phone.accessToken).status == 200)

            let grant = try await backend.passwordGrant(token: own.accessToken).reauthToken
            _ = try await backend.advance(seconds: 899)
            let inTime = try await backend.send(
                .DELETE, "/me/sessions/\(phoneId)", token: own.accessToken, reauth: grant)
            #expect(inTime.status == 204)
            #expect(try await backend.get("/me/auth-methods", token: phone.accessToken).status == 401)

            _ = try await backend.advance(seconds: 1)
            let late = try await backend.send(
                .DELETE, "/me/sessions/\(androidId)", token: own.accessToken, reauth: grant)
            #expect(late.status == 403)
            #expect(late.error?.code == "reauth_required")
            #expect(try await backend.get("/me/auth-methods", token: android.accessToken).status == 200)
        }
    }

    @Test func signingOthersOutNeedsVerifyItsYouWithinItsWindow() async throws {
        try await TestBackend.with { backend in
            let phone = try await signIn(backend, Self.iPhone, .phoneCode)
            let own = try await signIn(backend, Self.terminal, .password)
            let refused = try await backend.send(.POST, "/me/sessions/revoke-others", token: own.accessToken)
            #expect(refused.status == 403)
            #expect(refused.error?.code == "reauth_required")
            #expect(try await backend.get("/me/auth-methods", token: phone.accessToken).status == 200)

            let grant = try await backend.passwordGrant(token: own.accessToken).reauthToken
            _ = try await backend.advance(seconds: 15 * 60)
            let late = try await backend.send(
                .POST, "/me/sessions/revoke-others", token: own.accessToken, reauth: grant)
            #expect(late.status == 403)
            #expect(try await backend.get("/me/auth-methods", token: phone.accessToken).status == 200)
        }
    }

    @Test func signingOthersOutKillsEveryOtherAccessAndRefresh() async throws {
        try await TestBackend.with { backend in
            let phone = try await signIn(backend, Self.iPhone, .phoneCode)
            let android = try await signIn(backend, Self.pixel, .google)
            let own = try await signIn(backend, Self.terminal, .password)
            let grant = try await backend.passwordGrant(token: own.accessToken).reauthToken
            _ = try await backend.advance(seconds: 15 * 60 - 1)
            let done = try await backend.send(
                .POST, "/me/sessions/revoke-others", token: own.accessToken, reauth: grant)
            #expect(done.status == 200)
            #expect(try done.decode(SessionsSignedOut.self).signedOut == 2)
            for other in [phone, android] {
                let call = try await backend.get("/me/auth-methods", token: other.accessToken)
                #expect(call.error?.code == "session_revoked")
                let refresh = try await backend.post("/auth/refresh", RefreshBody(refreshToken: other.refreshToken))
                #expect(refresh.status == 401)
                #expect(refresh.error?.code == "session_revoked")
            }
            #expect(try await sessions(backend, token: own.accessToken).map(\.isCurrent) == [true])
            #expect(try await backend.outbox().filter { $0.kind == "session_signed_out_notice" }.count == 1)
            #expect(try await lastRule(backend, "/me/sessions/revoke-others") == "session.signed_out_others")
        }
    }

    /// Two devices signing each other out at once over real HTTP: exactly one session is left, the caller
    /// whose transaction came first; the other is told it was signed out.
    @Test(arguments: 0..<5) func twoDevicesSigningOthersOutAtOnceLeaveExactlyOne(round: Int) async throws {
        try await TestBackend.with { backend in
            let first = try await signIn(backend, Self.iPhone, .phoneCode)
            let second = try await signIn(backend, Self.pixel, .google)
            let third = try await signIn(backend, Self.terminal, .password)
            let firstGrant = try await backend.passwordGrant(token: first.accessToken).reauthToken
            let secondGrant = try await backend.passwordGrant(token: second.accessToken).reauthToken
            async let a = backend.send(
                .POST, "/me/sessions/revoke-others", token: first.accessToken, reauth: firstGrant)
            async let b = backend.send(
                .POST, "/me/sessions/revoke-others", token: second.accessToken, reauth: secondGrant)
            let replies = try await [a, b]
            #expect(replies.map(\.status).sorted() == [200, 401])
            let loser = try #require(replies.first { $0.status == 401 })
            #expect(loser.error?.code == "session_revoked")
            var alive: [String] = []
            for tokens in [first, second, third] {
                let call = try await backend.get("/me/auth-methods", token: tokens.accessToken)
                if call.status == 200 { alive.append(tokens.accessToken) }
            }
            #expect(alive.count == 1)
            let winner = replies[0].status == 200 ? first : second
            #expect(alive == [winner.accessToken])
            #expect(try await sessions(backend, token: winner.accessToken).count == 1)
        }
    }

    @Test func theQAShortcutWithoutADeviceListsNeitherDeviceNorMethod() async throws {
        try await TestBackend.with { backend in
            let plain = try await backend.signIn()
            let list = try await sessions(backend, token: plain.accessToken)
            #expect(list.count == 1)
            #expect(list.first?.device == nil)
            #expect(list.first?.method == nil)
            #expect(list.first?.isCurrent == true)
        }
    }

    @Test func aSignInFromTheScreensRecordsItsDeviceAndMethod() async throws {
        try await TestBackend.with { backend in
            let signedIn: SignedIn = try await backend.post(
                "/auth/login",
                PasswordLoginBody(email: "jdoe@mail.com", password: "correct-horse-42", device: Self.iPhone)
            ).decode()
            let list = try await sessions(backend, token: signedIn.session.accessToken)
            #expect(list.map(\.method) == [.password])
            #expect(list.map { $0.device?.deviceName } == ["Nino's iPhone"])
        }
    }

    @Test func manyDevicesListsThisDeviceAndFourOthersNewestFirst() async throws {
        try await TestBackend.with(scenario: "many-devices") { backend in
            let start = try await now(backend)
            let own = try await backend.signIn()
            let list = try await sessions(backend, token: own.accessToken)
            #expect(
                list.map { $0.device?.deviceName } == [nil, "Nino's iPhone", "Pixel 8", "Firefox on Mac", "Old iPad"])
            #expect(list.map(\.isCurrent) == [true, false, false, false, false])
            #expect(
                list.dropFirst().map(\.lastSeenAt) == [5, 180, 2880, 57600].map { start.addingTimeInterval(-$0 * 60) })
            #expect(list.dropFirst().map(\.method) == [.phoneCode, .google, .password, .emailCode])
        }
    }

    @Test func aScenarioThatStartsSignedOutHasNoOtherDeviceToSignIn() async throws {
        try await TestBackend.with(scenario: "new-user") { backend in
            let reply = try await backend.post(
                "/_admin/sessions", AdminSessionBody(device: Self.iPhone, method: .apple))
            #expect(reply.status == 409)
            #expect(reply.error?.code == "signed_out_scenario")
        }
    }

    @Test func aBadOtherDeviceIsRefused() async throws {
        try await TestBackend.with { backend in
            var device = Self.iPhone
            device.publicKey = "short"
            let reply = try await backend.post("/_admin/sessions", AdminSessionBody(device: device, method: .apple))
            #expect(reply.status == 422)
            #expect(reply.error?.code == "invalid_field")
        }
    }

    /// The generated decoder reads a nested `null` as absent: an admin body refuses it by name instead
    /// (schemathesis: `device.voip_token: null` was a schema-violating request answered 200).
    @Test func aNullInsideTheDeviceIsRefusedByName() async throws {
        try await TestBackend.with { backend in
            var body =
                try JSONSerialization.jsonObject(
                    with: APIJSON.makeContractEncoder().encode(AdminSessionBody(device: Self.iPhone, method: .apple)))
                as! [String: Any]
            var device = body["device"] as! [String: Any]
            device["voip_token"] = NSNull()
            body["device"] = device
            let reply = try await backend.send(
                .POST, "/_admin/sessions", raw: try JSONSerialization.data(withJSONObject: body))
            #expect(reply.status == 422)
            #expect(reply.error?.message == "device.voip_token: must not be null (leave it out instead).")
            let sessions = try await backend.get("/_admin/journal").decode([JournalEntry].self)
            #expect(sessions.last { $0.path == "/_admin/sessions" }?.status == 422)
        }
    }

    func lastRule(_ backend: TestBackend, _ path: String) async throws -> String? {
        try await backend.get("/_admin/journal").decode([JournalEntry].self).last { $0.path == path }?.rule
    }
}
