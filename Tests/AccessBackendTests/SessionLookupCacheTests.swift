import AccessAPI
import AccessBackendTesting
import AccessCore
import Foundation
import GRDB
import Testing

@testable import AccessBackend

/// Bearer lookups are kept until the next commit (`SessionLookupCache`). Each test first reads with a token,
/// so its lookup is cached, and then checks that what changed in the database, or on the clock, is seen by
/// the very next request.
@Suite struct SessionLookupCacheTests {
    static let entry = SessionLookupCache.Entry(
        user: UserRecord(
            id: "usr_1", role: .athlete, isPrimary: true, phone: "+995511100000", email: nil, passwordHash: nil,
            passwordSalt: nil, passwordChangedAt: nil, appleSubject: nil, googleSubject: nil),
        access: .full, assurance: .aal1, accessExpiresAt: 100)

    @Test func aCachedSessionIsRefusedRightAfterLogout() async throws {
        try await TestBackend.with { backend in
            let tokens = try await backend.signIn()
            #expect(try await backend.get("/me/auth-methods", token: tokens.accessToken).status == 200)
            #expect(try await backend.send(.POST, "/auth/logout", token: tokens.accessToken).status == 204)
            #expect(try await backend.get("/me/auth-methods", token: tokens.accessToken).status == 401)
        }
    }

    @Test func aConnectedProviderShowsOnTheNextRead() async throws {
        try await TestBackend.with(scenario: "no-phone") { backend in
            let token = try await backend.signIn().accessToken
            let before: AuthMethods = try await backend.get("/me/auth-methods", token: token).decode()
            #expect(!before.appleLinked)
            let minted: ProviderToken = try await backend.post("/_admin/provider/apple/token", ProviderTokenBody())
                .decode()
            let connected = try await backend.post(
                "/me/auth-methods/connect", ConnectBody(provider: .apple, idToken: minted.idToken), token: token)
            #expect(connected.status == 200)
            let after: AuthMethods = try await backend.get("/me/auth-methods", token: token).decode()
            #expect(after.appleLinked)
        }
    }

    @Test func aScenarioResetEndsCachedSessions() async throws {
        try await TestBackend.with { backend in
            let token = try await backend.signIn().accessToken
            #expect(try await backend.get("/me/auth-methods", token: token).status == 200)
            #expect(try await backend.post("/_admin/scenario", LoadScenarioBody(name: "coach")).status == 200)
            #expect(try await backend.get("/me/auth-methods", token: token).status == 401)
        }
    }

    /// Moving the clock writes nothing, so the cached lookup stays: its own expiry check must refuse it.
    @Test func aCachedAccessTokenExpiresWithTheClock() async throws {
        try await TestBackend.with { backend in
            let token = try await backend.signIn().accessToken
            #expect(try await backend.get("/me/auth-methods", token: token).status == 200)
            _ = try await backend.advance(seconds: SessionRules.accessLifetime - 1)
            #expect(try await backend.get("/me/auth-methods", token: token).status == 200)
            _ = try await backend.advance(seconds: 1)
            #expect(try await backend.get("/me/auth-methods", token: token).status == 401)
        }
    }

    /// A lookup read before a commit may show the row as it was: it is not kept once that commit is seen.
    @Test func aLookupReadBeforeACommitIsNotKept() throws {
        let cache = SessionLookupCache()
        let entry = Self.entry
        let (_, generation) = cache.find("hash", now: 0)
        cache.invalidate()
        cache.keep(entry, for: "hash", readAt: generation)
        #expect(cache.find("hash", now: 0).hit == nil)
        let (_, current) = cache.find("hash", now: 0)
        cache.keep(entry, for: "hash", readAt: current)
        #expect(cache.find("hash", now: 0).hit?.user.id == "usr_1")
        #expect(cache.find("hash", now: 100).hit == nil)
    }

    @Test func everyCommitOfTheDatabaseEmptiesTheCache() throws {
        let queue = try DatabaseQueue()
        try queue.write { try $0.execute(sql: "CREATE TABLE t (x INTEGER)") }
        let cache = SessionLookupCache()
        cache.watch(queue)
        let entry = Self.entry
        cache.keep(entry, for: "hash", readAt: cache.find("hash", now: 0).generation)
        #expect(cache.find("hash", now: 0).hit != nil)
        try queue.write { try $0.execute(sql: "INSERT INTO t VALUES (1)") }
        #expect(cache.find("hash", now: 0).hit == nil)
    }
}
