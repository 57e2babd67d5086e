import AccessAPI
import AccessBackendTesting
import Foundation
import Testing

/// Issue 45 item 6: a re-auth grant belongs to the sign-in that earned it. While that lives the grant covers
/// every change of its 15 minutes (seed 000), refreshes included; another session of the account cannot use
/// it, and it ends with its sign-in, however that ends.
@Suite struct ReauthSessionTests {
    /// A sign-out of a session id nobody has: the grant is checked before the id (`SessionListService`), so 404
    /// says the grant was taken and 403 `reauth_required` that it was refused, and nothing changes either way.
    static func probe(_ backend: TestBackend, token: String, grant: String) async throws -> Reply {
        try await backend.send(.DELETE, "/me/sessions/sf_nobody", token: token, reauth: grant)
    }

    static func expectTaken(_ reply: Reply, sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(reply.status == 404, "\(text(reply))", sourceLocation: sourceLocation)
    }

    static func expectRefused(_ reply: Reply, sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(reply.status == 403, "\(text(reply))", sourceLocation: sourceLocation)
        #expect(reply.error?.code == "reauth_required", sourceLocation: sourceLocation)
    }

    static func text(_ reply: Reply) -> String { "\(reply.status) \(String(decoding: reply.data, as: UTF8.self))" }

    /// The id of the sign-in `token` belongs to, as Active sessions lists it.
    static func sessionId(_ backend: TestBackend, token: String) async throws -> String {
        let list: ActiveSessions = try await backend.get("/me/sessions", token: token).decode()
        return try #require(list.sessions.first { $0.isCurrent }?.id)
    }

    @Test func oneGrantCoversSeveralChangesOfItsOwnSessionAndOutlivesItsRefresh() async throws {
        try await TestBackend.with { backend in
            let here = try await backend.signIn()
            let first = try await backend.signIn()
            let second = try await backend.signIn()
            let grant = try await backend.passwordGrant(token: here.accessToken).reauthToken
            Self.expectTaken(try await Self.probe(backend, token: here.accessToken, grant: grant))
            let one = try await Self.sessionId(backend, token: first.accessToken)
            let signedOut = try await backend.send(
                .DELETE, "/me/sessions/\(one)", token: here.accessToken, reauth: grant)
            #expect(signedOut.status == 204)
            // A refresh rotates the tokens, not the sign-in: the grant goes on with it.
            _ = try await backend.advance(seconds: 60)
            let rotated: SessionTokens = try await backend.post(
                "/auth/refresh", RefreshBody(refreshToken: here.refreshToken)
            ).decode()
            let others = try await backend.send(
                .POST, "/me/sessions/revoke-others", token: rotated.accessToken, reauth: grant)
            #expect(others.status == 200)
            #expect(try others.decode(SessionsSignedOut.self).signedOut == 1)
            #expect(try await backend.get("/auth/me", token: second.accessToken).status == 401)
            // Its 15 minutes still end it.
            _ = try await backend.advance(seconds: 15 * 60)
            Self.expectRefused(try await Self.probe(backend, token: rotated.accessToken, grant: grant))
        }
    }

    @Test func anotherSessionOfTheAccountCannotUseTheGrant() async throws {
        try await TestBackend.with { backend in
            let here = try await backend.signIn()
            let there = try await backend.signIn()
            let grant = try await backend.passwordGrant(token: here.accessToken).reauthToken
            Self.expectRefused(try await Self.probe(backend, token: there.accessToken, grant: grant))
            let taken = try await backend.send(
                .POST, "/me/sessions/revoke-others", token: there.accessToken, reauth: grant)
            Self.expectRefused(taken)
            #expect(try await backend.get("/auth/me", token: here.accessToken).status == 200)
            // Still the grant of its own session.
            Self.expectTaken(try await Self.probe(backend, token: here.accessToken, grant: grant))
        }
    }

    /// Each way a session ends, for the session that earned a grant. Afterwards the grant is refused to a live
    /// session of the account, whose own grant is taken.
    enum Ending: String, CaseIterable, CustomTestStringConvertible {
        case logout, signedOutFromAnotherDevice, otherDevicesSignedOut, passwordChanged, passwordReset
        case refreshTokenReused

        var testDescription: String { rawValue }

        /// Ends `earner`'s session; returns a live session of the account with a grant of its own.
        func end(
            _ earner: SessionTokens, backend: TestBackend
        ) async throws -> (token: String, grant: String) {
            switch self {
            case .logout:
                let other = try await backend.signIn()
                #expect(try await backend.send(.POST, "/auth/logout", token: earner.accessToken).status == 204)
                return (other.accessToken, try await backend.passwordGrant(token: other.accessToken).reauthToken)
            case .signedOutFromAnotherDevice:
                let other = try await backend.signIn()
                let grant = try await backend.passwordGrant(token: other.accessToken).reauthToken
                let id = try await ReauthSessionTests.sessionId(backend, token: earner.accessToken)
                let reply = try await backend.send(
                    .DELETE, "/me/sessions/\(id)", token: other.accessToken, reauth: grant)
                #expect(reply.status == 204)
                return (other.accessToken, grant)
            case .otherDevicesSignedOut:
                let other = try await backend.signIn()
                let grant = try await backend.passwordGrant(token: other.accessToken).reauthToken
                let reply = try await backend.send(
                    .POST, "/me/sessions/revoke-others", token: other.accessToken, reauth: grant)
                #expect(reply.status == 200)
                return (other.accessToken, grant)
            case .passwordChanged:
                let other = try await backend.signIn()
                // Not by password: a new password is never verified with the old one.
                let grant = try await backend.phoneGrant(token: other.accessToken)
                let reply = try await backend.post(
                    "/auth/password/change", ChangePasswordBody(newPassword: "battery-staple-77"),
                    token: other.accessToken, reauth: grant)
                #expect(reply.status == 200)
                return (other.accessToken, grant)
            case .passwordReset:
                #expect(try await PasswordResetTests.request(backend).status == 202)
                let link = try await PasswordResetTests.lastLinkToken(backend)
                #expect(try await PasswordResetTests.complete(backend, link).status == 200)
                // Every session ended: a new one, as a sign-in with the new password would make.
                let other = try await backend.signIn()
                let grant = try await backend.passwordGrant(
                    token: other.accessToken, password: PasswordResetTests.strong
                ).reauthToken
                return (other.accessToken, grant)
            case .refreshTokenReused:
                let other = try await backend.signIn()
                let refreshed = try await backend.post("/auth/refresh", RefreshBody(refreshToken: earner.refreshToken))
                #expect(refreshed.status == 200)
                // Past the reuse interval, the spent token again: its sign-in ends (`session.refresh_reused`).
                _ = try await backend.advance(seconds: 11)
                let reused = try await backend.post("/auth/refresh", RefreshBody(refreshToken: earner.refreshToken))
                #expect(reused.status == 401)
                let rotated: SessionTokens = try refreshed.decode()
                #expect(try await backend.get("/auth/me", token: rotated.accessToken).status == 401)
                return (other.accessToken, try await backend.passwordGrant(token: other.accessToken).reauthToken)
            }
        }
    }

    @Test(arguments: Ending.allCases)
    func theGrantEndsWithItsSession(ending: Ending) async throws {
        try await TestBackend.with { backend in
            let earner = try await backend.signIn()
            let grant = try await backend.passwordGrant(token: earner.accessToken).reauthToken
            Self.expectTaken(try await Self.probe(backend, token: earner.accessToken, grant: grant))
            let live = try await ending.end(earner, backend: backend)
            #expect(try await backend.get("/auth/me", token: earner.accessToken).status == 401)
            Self.expectRefused(try await Self.probe(backend, token: live.token, grant: grant))
            let revokeOthers = try await backend.send(
                .POST, "/me/sessions/revoke-others", token: live.token, reauth: grant)
            Self.expectRefused(revokeOthers)
            // The live session's own grant is taken: the refusal is the ended session's grant's.
            Self.expectTaken(try await Self.probe(backend, token: live.token, grant: live.grant))
        }
    }
}
